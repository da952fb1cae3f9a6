#include "env/agent_actions.h"

#include "env/rules.h"

namespace morne::env {

bool isReturnStep(const GameState& s, Action a) {
  if (a.kind != ActionKind::kMove) return false;
  const Scenario& sc = s.sc();
  const uint8_t trail = s.unit(s.unitAt(a.cell)).trail;
  const CellId to = sc.neighbor(a.cell, a.arg);
  CellId left = a.cell;  // walk back along the trail: the hexes the unit left, latest first
  for (int back = 0; back < 2; ++back) {
    const int dir = step_trail::direction(trail, back);
    if (dir < 0) return false;
    left = sc.neighbor(left, oppositeDirection(dir));
    if (left == to) return true;
  }
  return false;
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
