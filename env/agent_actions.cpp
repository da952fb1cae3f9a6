#include "env/agent_actions.h"

#include "env/rules.h"

namespace morne::env {

namespace {

// Whether cavalry unit u, once in `to`, could charge an enemy there (MV-CHG-1, MV-CHG-5).
bool couldChargeFrom(const GameState& s, int u, CellId to) {
  if (s.typeOf(u) != UnitType::kCavalry || s.has(u, unit_flag::kCharged) || s.demoralised(u))
    return false;
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = s.sc().side(to, d);
    if (!h.contact) continue;
    const int target = s.unitAt(h.neighbor);
    if (target >= 0 && s.sideOf(target) != s.sideOf(u) && !isGeneral(s.typeOf(target))) return true;
  }
  return false;
}

}  // namespace

bool isReturnStep(const GameState& s, Action a) {
  if (a.kind != ActionKind::kMove) return false;
  const Scenario& sc = s.sc();
  const int u = s.unitAt(a.cell);
  const uint8_t trail = s.unit(u).trail;
  const CellId to = sc.neighbor(a.cell, a.arg);
  CellId left = a.cell;  // walk back along the trail: the hexes the unit left, latest first
  int back = 0;
  for (; back < 2; ++back) {
    const int dir = step_trail::direction(trail, back);
    if (dir < 0) return false;
    left = sc.neighbor(left, oppositeDirection(dir));
    if (left == to) break;
  }
  if (back == 2) return false;
  // The reasons the rules give to step straight back, once per excursion (a unit that has just
  // come back goes on): it has taken the passing hex it stands on (V-HEX-2), or it is cavalry
  // that must move before it charges and goes back into contact (MV-CHG-5).
  const int last = step_trail::direction(trail, 0), before = step_trail::direction(trail, 1);
  const bool came_back = before >= 0 && before == oppositeDirection(last);
  if (back == 0 && !came_back) {
    if (sc.trackedIndex(a.cell) >= 0) return false;
    if (sc.rules().charge_requires_move && couldChargeFrom(s, u, to)) return false;
  }
  return true;
}

void agentActions(const GameState& s, ActionList& out, bool prune) {
  if (prune) {
    agentActions(s, out);
  } else {
    legalActions(s, out);
  }
}

void agentActions(const GameState& s, ActionList& out) {
  legalActions(s, out);
  size_t kept = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!isReturnStep(s, out[i])) out[kept++] = out[i];
  }
  out.truncate(kept);
}

}  // namespace morne::env
