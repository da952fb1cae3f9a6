#include "env/crt.h"

namespace morne::env {

namespace {

// Appendix B as printed: rows are the modified die 0..7, columns 1:8 .. 8:1.
constexpr const char* kAppendixB[kCrtRows][kCrtColumns] = {
    {"2*/0", "2*/0", "2*/0", "2*/0", "2*/0", "2*/0", "1*/0", "1*/0", "1/0", "1/1", "1/1*", "0/1*",
     "0/1*", "0/2", "0/2*"},
    {"2*/0", "2*/0", "2*/0", "2*/0", "2*/0", "1*/0", "1*/0", "1/0", "1/1", "1/1*", "0/1*", "0/1*",
     "0/2", "0/2*", "0/2*"},
    {"2*/0", "2*/0", "2*/0", "2*/0", "1*/0", "1*/0", "1/0", "1/1", "1/1*", "0/1*", "0/1*", "0/2",
     "0/2*", "0/2*", "0/3*"},
    {"2*/0", "2*/0", "2*/0", "1*/0", "1*/0", "1/0", "1/1", "1/1*", "0/1*", "0/1*", "0/2", "0/2*",
     "0/2*", "0/3*", "0/3*"},
    {"2*/0", "2*/0", "1*/0", "1*/0", "1/0", "1/1", "1/1*", "0/1*", "0/1*", "0/2", "0/2*", "0/2*",
     "0/3*", "0/3*", "0/3*"},
    {"2*/0", "1*/0", "1*/0", "1/0", "1/1", "1/1*", "0/1*", "0/1*", "0/2", "0/2*", "0/2*", "0/3*",
     "0/3*", "0/3*", "0/3*"},
    {"1*/0", "1*/0", "1/0", "1/1", "1/1*", "0/1*", "0/1*", "0/2", "0/2*", "0/2*", "0/3*", "0/3*",
     "0/3*", "0/3*", "0/3*"},
    {"1*/0", "1/0", "1/1", "1/1*", "0/1*", "0/1*", "0/2", "0/2*", "0/2*", "0/3*", "0/3*", "0/3*",
     "0/3*", "0/3*", "0/3*"},
};

}  // namespace

const CombatResultsTable& appendixBTable() {
  static const CombatResultsTable kTable = [] {
    CombatResultsTable t;
    for (int row = 0; row < kCrtRows; ++row) {
      for (int col = 0; col < kCrtColumns; ++col) t[row][col] = *parseCrtCell(kAppendixB[row][col]);
    }
    return t;
  }();
  return kTable;
}

std::optional<CrtCell> parseCrtCell(std::string_view text) {
  CrtCell cell;
  size_t i = 0;
  auto side = [&](uint8_t& loss, bool& test) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') return false;
    loss = static_cast<uint8_t>(text[i++] - '0');
    test = i < text.size() && text[i] == '*';
    if (test) ++i;
    return true;
  };
  if (!side(cell.attacker_loss, cell.attacker_test)) return std::nullopt;
  if (i >= text.size() || text[i++] != '/') return std::nullopt;
  if (!side(cell.defender_loss, cell.defender_test) || i != text.size()) return std::nullopt;
  return cell;
}

std::string crtCellText(const CrtCell& cell) {
  std::string out = std::to_string(cell.attacker_loss) + (cell.attacker_test ? "*" : "");
  return out + "/" + std::to_string(cell.defender_loss) + (cell.defender_test ? "*" : "");
}

std::string oddsName(int column) {
  return column >= 0 ? std::to_string(column + 1) + ":1" : "1:" + std::to_string(1 - column);
}

}  // namespace morne::env
