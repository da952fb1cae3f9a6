#include "env/action.h"

#include <array>

namespace morne::env {

namespace {

constexpr std::array<std::string_view, kNumActionKinds> kKindNames = {
    "end", "hold", "place", "move", "charge", "attack", "fire"};
constexpr int kMaxFireRange = 5;

// Plane layout: [move x6][charge x6][attack x6][fire x F][place x1].
constexpr int kMovePlane = 0;
constexpr int kChargePlane = 6;
constexpr int kAttackPlane = 12;
constexpr int kFirePlane = 18;

// Every hex within kMaxFireRange, ring by ring: each ring starts `radius` steps east and walks
// counter-clockwise (NW, W, SW, SE, E, NE legs of `radius` steps). Rings are nested, so the
// offsets within range r are the first 3r(r+1) entries.
constexpr std::array<Hex, 3 * kMaxFireRange*(kMaxFireRange + 1)> kRingOffsets = [] {
  std::array<Hex, 3 * kMaxFireRange*(kMaxFireRange + 1)> out{};
  size_t i = 0;
  for (int radius = 1; radius <= kMaxFireRange; ++radius) {
    Hex h{radius, 0};
    for (int leg = 0; leg < kNumDirections; ++leg) {
      const Hex step = kHexDirections[static_cast<size_t>((leg + 2) % kNumDirections)];
      for (int k = 0; k < radius; ++k) {
        out[i++] = h;
        h = h + step;
      }
    }
  }
  return out;
}();

}  // namespace

std::string_view actionKindName(ActionKind k) { return kKindNames[static_cast<size_t>(k)]; }

std::optional<ActionKind> parseActionKindName(std::string_view name) {
  for (size_t i = 0; i < kKindNames.size(); ++i) {
    if (kKindNames[i] == name) return static_cast<ActionKind>(i);
  }
  return std::nullopt;
}

std::span<const Hex> fireOffsets(int range) {
  const int r = range < 0 ? 0 : (range > kMaxFireRange ? kMaxFireRange : range);
  return {kRingOffsets.data(), static_cast<size_t>(3 * r * (r + 1))};
}

int actionPlanesForRange(int range) {
  return kFirePlane + static_cast<int>(fireOffsets(range).size()) + 1;
}

int actionPlanes(const Scenario& sc) { return actionPlanesForRange(sc.maxRange()); }

int actionSpaceSize(const Scenario& sc) { return actionPlanes(sc) * sc.numCells() + 2; }

int actionIndex(const Scenario& sc, Action a) {
  const int n = sc.numCells();
  switch (a.kind) {
    case ActionKind::kEnd:
      return actionPlanes(sc) * n;
    case ActionKind::kHold:
      return actionPlanes(sc) * n + 1;
    case ActionKind::kPlace:
      return (actionPlanes(sc) - 1) * n + a.cell;
    case ActionKind::kMove:
      return (kMovePlane + a.arg) * n + a.cell;
    case ActionKind::kCharge:
      return (kChargePlane + a.arg) * n + a.cell;
    case ActionKind::kAttack:
      return (kAttackPlane + a.arg) * n + a.cell;
    case ActionKind::kFire:
      return (kFirePlane + a.arg) * n + a.cell;
  }
  return -1;
}

std::optional<Action> actionFromIndex(const Scenario& sc, int index) {
  const int n = sc.numCells();
  const int planes = actionPlanes(sc);
  if (index < 0 || index > planes * n + 1) return std::nullopt;
  if (index == planes * n) return Action::end();
  if (index == planes * n + 1) return Action::hold();
  const int plane = index / n;
  const auto cell = static_cast<CellId>(index % n);
  if (plane == planes - 1) return Action::place(cell);
  if (plane < kChargePlane) return Action{ActionKind::kMove, static_cast<uint8_t>(plane), cell};
  if (plane < kAttackPlane) {
    return Action{ActionKind::kCharge, static_cast<uint8_t>(plane - kChargePlane), cell};
  }
  if (plane < kFirePlane) {
    return Action{ActionKind::kAttack, static_cast<uint8_t>(plane - kAttackPlane), cell};
  }
  return Action{ActionKind::kFire, static_cast<uint8_t>(plane - kFirePlane), cell};
}

}  // namespace morne::env
