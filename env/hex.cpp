#include "env/hex.h"

#include <cctype>

namespace morne::env {

namespace {
constexpr std::array<std::string_view, kNumDirections> kDirectionNames = {"E", "NE", "NW",
                                                                          "W", "SW", "SE"};
}  // namespace

std::string_view directionName(int dir) { return kDirectionNames[static_cast<size_t>(dir)]; }

std::optional<int> parseDirection(std::string_view name) {
  for (int d = 0; d < kNumDirections; ++d) {
    const std::string_view candidate = kDirectionNames[static_cast<size_t>(d)];
    if (candidate.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < name.size(); ++i) {
      if (std::toupper(static_cast<unsigned char>(name[i])) != candidate[i]) same = false;
    }
    if (same) return d;
  }
  return std::nullopt;
}

std::optional<int> directionBetween(Hex from, Hex to) {
  const Hex delta = to - from;
  for (int d = 0; d < kNumDirections; ++d) {
    if (kHexDirections[static_cast<size_t>(d)] == delta) return d;
  }
  return std::nullopt;
}

std::string offsetLabel(int col, int row) {
  std::string label(4, '0');
  label[0] = static_cast<char>('0' + (col + 1) / 10);
  label[1] = static_cast<char>('0' + (col + 1) % 10);
  label[2] = static_cast<char>('0' + (row + 1) / 10);
  label[3] = static_cast<char>('0' + (row + 1) % 10);
  return label;
}

bool parseOffsetLabel(std::string_view label, int& col, int& row) {
  if (label.size() != 4) return false;
  for (char c : label) {
    if (c < '0' || c > '9') return false;
  }
  const int c1 = (label[0] - '0') * 10 + (label[1] - '0');
  const int r1 = (label[2] - '0') * 10 + (label[3] - '0');
  if (c1 < 1 || r1 < 1) return false;
  col = c1 - 1;
  row = r1 - 1;
  return true;
}

}  // namespace morne::env
