#include "env/action.h"

#include <array>

namespace morne::env {

namespace {

constexpr std::array<std::string_view, kNumActionKinds> kKindNames = {"end",    "place",  "move",
                                                                      "charge", "attack", "fire"};
constexpr int kMaxFireRange = 5;

// Plane layout: [move x6][charge x6][attack x6][fire x F][place x1].
constexpr int kMovePlane = 0;
constexpr int kChargePlane = 6;
constexpr int kAttackPlane = 12;
constexpr int kFirePlane = 18;

std::vector<Hex> ringOffsets(int range) {
  std::vector<Hex> out;
  for (int radius = 1; radius <= range; ++radius) {
    // Start `radius` steps east, then walk the ring counter-clockwise (NW, W, SW, SE, E, NE
    // legs of `radius` steps each).
    Hex h{radius, 0};
    for (int leg = 0; leg < kNumDirections; ++leg) {
      const Hex step = kHexDirections[static_cast<size_t>((leg + 2) % kNumDirections)];
      for (int k = 0; k < radius; ++k) {
        out.push_back(h);
        h = h + step;
      }
    }
  }
  return out;
}

}  // namespace

std::string_view actionKindName(ActionKind k) { return kKindNames[static_cast<size_t>(k)]; }

std::optional<ActionKind> parseActionKindName(std::string_view name) {
  for (size_t i = 0; i < kKindNames.size(); ++i) {
    if (kKindNames[i] == name) return static_cast<ActionKind>(i);
  }
  return std::nullopt;
}

const std::vector<Hex>& fireOffsets(int range) {
  static const std::array<std::vector<Hex>, kMaxFireRange + 1> kTables = [] {
    std::array<std::vector<Hex>, kMaxFireRange + 1> t;
    for (int r = 0; r <= kMaxFireRange; ++r) t[static_cast<size_t>(r)] = ringOffsets(r);
    return t;
  }();
  const int r = range < 0 ? 0 : (range > kMaxFireRange ? kMaxFireRange : range);
  return kTables[static_cast<size_t>(r)];
}

int actionPlanes(const Scenario& sc) {
  return kFirePlane + static_cast<int>(fireOffsets(sc.maxRange()).size()) + 1;
}

int actionSpaceSize(const Scenario& sc) { return actionPlanes(sc) * sc.numCells() + 1; }

int actionIndex(const Scenario& sc, Action a) {
  const int n = sc.numCells();
  switch (a.kind) {
    case ActionKind::kEnd:
      return actionPlanes(sc) * n;
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
  if (index < 0 || index > planes * n) return std::nullopt;
  if (index == planes * n) return Action::end();
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
