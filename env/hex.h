#pragma once
// Hex geometry: axial coordinates, directions, distances and the offset labels printed on maps.
//
// The map is pointy-top (M-HEX-1): hexes form horizontal rows. Inside the engine a hex is an
// axial coordinate (q, r) (M-HEX-2); its six neighbours, counter-clockwise from east, are
//
//            NW (q,r-1)   NE (q+1,r-1)
//     W (q-1,r)     (q,r)      E (q+1,r)
//            SW (q-1,r+1)  SE (q,r+1)
//
// North is decreasing r. Offset coordinates (column, row) exist only at the boundaries, where a
// hex is named by its map label "CCRR" (column then row, two digits each, 1-based), e.g. "0507".

#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace morne::env {

// An axial hex coordinate. Plain value type.
struct Hex {
  int q = 0;
  int r = 0;
  friend constexpr bool operator==(Hex, Hex) = default;
  friend constexpr Hex operator+(Hex a, Hex b) { return {a.q + b.q, a.r + b.r}; }
  friend constexpr Hex operator-(Hex a, Hex b) { return {a.q - b.q, a.r - b.r}; }
};

inline constexpr int kNumDirections = 6;

// Direction index 0..5: E, NE, NW, W, SW, SE (counter-clockwise from east).
inline constexpr std::array<Hex, kNumDirections> kHexDirections = {
    {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}};

// The direction pointing back along `dir`.
constexpr int oppositeDirection(int dir) { return (dir + 3) % kNumDirections; }

// Number of steps between two hexes (M-HEX-2).
constexpr int hexDistance(Hex a, Hex b) {
  const int dq = a.q - b.q;
  const int dr = a.r - b.r;
  const int ds = dq + dr;
  const int aq = dq < 0 ? -dq : dq;
  const int ar = dr < 0 ? -dr : dr;
  const int as = ds < 0 ? -ds : ds;
  return aq > ar ? (aq > as ? aq : as) : (ar > as ? ar : as);
}

// The hex metric G(u, v) = 2uq·vq + uq·vr + ur·vq + 2ur·vr, proportional to the Euclidean dot
// product of the two vectors between hex centres (F-LOS-9). G(d, d) is 2 for a neighbour.
constexpr int hexMetric(Hex u, Hex v) {
  return 2 * u.q * v.q + u.q * v.r + u.r * v.q + 2 * u.r * v.r;
}

// Short compass name of a direction ("E", "NE", ...). Precondition: 0 <= dir < 6.
std::string_view directionName(int dir);

// Parses a compass name (case-insensitive). Returns nullopt for anything else.
std::optional<int> parseDirection(std::string_view name);

// The direction from `from` to the adjacent hex `to`, or nullopt if they are not neighbours.
std::optional<int> directionBetween(Hex from, Hex to);

// How offset rows are shifted: in "odd-r" odd rows (0-based) sit half a hex to the right,
// in "even-r" even rows do. Only used to convert labels; the engine works in axial coordinates.
enum class OffsetLayout : uint8_t { kOddR, kEvenR };

// Converts 0-based (column, row) to axial.
constexpr Hex offsetToAxial(int col, int row, OffsetLayout layout) {
  const int shift = layout == OffsetLayout::kOddR ? (row - (row & 1)) / 2 : (row + (row & 1)) / 2;
  return {col - shift, row};
}

// Converts axial to 0-based (column, row).
constexpr void axialToOffset(Hex h, OffsetLayout layout, int& col, int& row) {
  row = h.r;
  const int shift = layout == OffsetLayout::kOddR ? (row - (row & 1)) / 2 : (row + (row & 1)) / 2;
  col = h.q + shift;
}

// The map label "CCRR" (1-based, two digits each) of 0-based (column, row).
// Precondition: 0 <= col, row <= 98.
std::string offsetLabel(int col, int row);

// Parses "CCRR" into 0-based (column, row). Returns false unless the text is exactly four
// digits naming a column and row of at least 01.
bool parseOffsetLabel(std::string_view label, int& col, int& row);

}  // namespace morne::env
