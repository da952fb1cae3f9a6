#include "env/reachable.h"

#include <algorithm>

#include "env/control.h"
#include "env/movement.h"
#include "env/turn.h"

namespace morne::env {

namespace {

// A search label: the unit at `cell` with its road flag, having spent `cost`.
struct Label {
  int cost = -1;
  bool marsh = false;
  int parent = -1;  // label index
};

int labelIndex(CellId c, bool road_free) { return c * 2 + (road_free ? 1 : 0); }

}  // namespace

std::vector<ReachableHex> reachableHexes(const GameState& s, int u) {
  std::vector<ReachableHex> out;
  if (s.phase != Phase::kMovement || s.isChanceNode() || s.sideOf(u) != s.side || !s.onMap(u)) {
    return out;
  }
  const Scenario& sc = s.sc();
  const CellId start = s.unit(u).cell;
  const int mp = s.unit(u).mp;
  const uint16_t flags = s.unit(u).flags;
  std::vector<Label> labels(static_cast<size_t>(sc.numCells()) * 2);
  std::vector<bool> done(labels.size(), false);
  const int first = labelIndex(start, (flags & unit_flag::kRoadFree) != 0);
  labels[static_cast<size_t>(first)].cost = 0;

  GameState probe = s;  // the unit is moved around on a copy to ask stepCost
  for (;;) {
    // Dijkstra: settle the cheapest open label (costs are small; a scan is fine here).
    int best = -1;
    for (size_t i = 0; i < labels.size(); ++i) {
      if (done[i] || labels[i].cost < 0) continue;
      if (best < 0 || labels[i].cost < labels[static_cast<size_t>(best)].cost)
        best = static_cast<int>(i);
    }
    if (best < 0) break;
    done[static_cast<size_t>(best)] = true;
    const Label here = labels[static_cast<size_t>(best)];
    const auto cell = static_cast<CellId>(best / 2);
    if (cell != start && enemyControlled(s, cell, s.sideOf(u))) continue;  // MV-ZOC-2 stop
    if (probe.unit(u).cell != cell) setUnitCell(probe, u, cell);
    setUnitMp(probe, u, mp - here.cost);
    uint16_t f = static_cast<uint16_t>(flags & ~(unit_flag::kRoadFree | unit_flag::kStepped));
    if (best % 2) f |= unit_flag::kRoadFree;
    if (cell != start || here.cost > 0) f |= unit_flag::kStepped;
    setUnitFlags(probe, u, f);
    for (int d = 0; d < kNumDirections; ++d) {
      bool road = false;
      const int cost = stepCost(probe, u, d, &road);
      if (cost < 0) continue;
      const CellId to = sc.neighbor(cell, d);
      const bool next_free = road && (best % 2) == 0;
      const int idx = labelIndex(to, next_free);
      const int total = std::min(mp, here.cost + cost);
      Label& l = labels[static_cast<size_t>(idx)];
      if (!done[static_cast<size_t>(idx)] && (l.cost < 0 || total < l.cost)) {
        l.cost = total;
        l.parent = best;
        l.marsh = here.marsh || sc.terrain(to) == Terrain::kMarsh;
      }
    }
  }

  for (CellId c = 0; c < sc.numCells(); ++c) {
    if (c == start) continue;
    const Label& a = labels[static_cast<size_t>(labelIndex(c, false))];
    const Label& b = labels[static_cast<size_t>(labelIndex(c, true))];
    int pick = -1;
    if (a.cost >= 0) pick = labelIndex(c, false);
    if (b.cost >= 0 && (pick < 0 || b.cost < a.cost)) pick = labelIndex(c, true);
    if (pick < 0) continue;
    ReachableHex r;
    r.cell = c;
    r.cost = labels[static_cast<size_t>(pick)].cost;
    r.through_marsh = labels[static_cast<size_t>(pick)].marsh;
    r.stops = enemyControlled(s, c, s.sideOf(u));
    for (int i = pick; i >= 0 && i != first; i = labels[static_cast<size_t>(i)].parent) {
      r.path.push_back(static_cast<CellId>(i / 2));
    }
    std::reverse(r.path.begin(), r.path.end());
    out.push_back(std::move(r));
  }
  return out;
}

NextMovement reachableHexesNextMovement(const GameState& s, int u) {
  if (!s.onMap(u)) return {};
  GameState probe = s;
  probe.side = static_cast<uint8_t>(s.sideOf(u));
  probe.phase = Phase::kMovement;
  probe.pending = {};
  probe.reacting_to = -1;
  probe.charge_window = -1;
  probe.combat = {};
  using namespace unit_flag;
  constexpr uint16_t kPerTurn = kInCommand | kMoved | kStepped | kHalted | kStuck | kRoadFree |
                                kFired | kAttacked | kDefended | kCharged;
  uint16_t flags = static_cast<uint16_t>(s.unit(u).flags & ~kPerTurn);
  if (inCommand(s, u)) flags |= kInCommand;
  if (s.sc().isRoadHex(s.unit(u).cell)) flags |= kRoadFree;
  setUnitFlags(probe, u, flags);
  setUnitTrail(probe, u, 0);
  setUnitMp(probe, u, movementAllowance(probe, u));
  return {probe.unit(u).mp, reachableHexes(probe, u)};
}

}  // namespace morne::env
