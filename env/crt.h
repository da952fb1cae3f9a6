#pragma once
// The combat results table (C-CRT-1): 8 rows (modified die 0..7) by 15 columns (odds 1:8 ..
// 1:1 .. 8:1); each cell gives the VC lost by the attacker and by the defender, and whether
// each side makes a morale test. The table is data: the default is the specification's
// Appendix B (C-CRT-2, proposed), and a scenario may replace it as a whole
// ("rules": {"combat_results_table": [...]}, docs/scenario-format.md).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace morne::env {

struct CrtCell {
  uint8_t attacker_loss = 0;
  bool attacker_test = false;
  uint8_t defender_loss = 0;
  bool defender_test = false;
  friend bool operator==(const CrtCell&, const CrtCell&) = default;
};

inline constexpr int kCrtRows = 8;      // modified die 0..7
inline constexpr int kCrtColumns = 15;  // 1:8 .. 8:1
using CombatResultsTable = std::array<std::array<CrtCell, kCrtColumns>, kCrtRows>;

// Appendix B of the rules specification.
const CombatResultsTable& appendixBTable();

// "1*/0" <-> cell: attacker loss, '*' for a test, '/', defender loss, '*' for a test.
std::optional<CrtCell> parseCrtCell(std::string_view text);
std::string crtCellText(const CrtCell& cell);

// Column index -7..7 of an odds ratio: "1:8" is -7, "1:1" is 0, "8:1" is 7.
std::string oddsName(int column);

}  // namespace morne::env
