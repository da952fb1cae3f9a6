#pragma once
// Facts about a position that the heuristics read again and again (agents/heuristics.h): who
// holds an objective, who is in contact, what a unit is worth.
// Inline: they sit in the search's rollouts.

#include <algorithm>

#include "agents/heuristic_weights.h"
#include "env/game_state.h"

namespace morne::agents {

// Whether side `side` holds objective o now, not counting unit `ignore` (V-HEX-1..3).
inline bool holds(const env::GameState& s, const env::Objective& o, int side, int ignore) {
  if (o.passing) {
    const int t = s.sc().trackedIndex(o.cell);
    return t >= 0 && s.owner[static_cast<size_t>(t)] == side;
  }
  const int v = s.unitAt(o.cell);
  return v >= 0 && v != ignore && s.sideOf(v) == side && !env::isGeneral(s.typeOf(v));
}

// Enemy units in contact with `cell` (M-CONTACT-1); *strongest gets the highest enemy VC.
inline int enemiesInContact(const env::GameState& s, env::CellId cell, int side, int* strongest) {
  const env::Scenario& sc = s.sc();
  int n = 0;
  for (int d = 0; d < env::kNumDirections; ++d) {
    const env::Hexside& h = sc.side(cell, d);
    if (h.neighbor == env::kNoCell || !h.contact) continue;
    const int v = s.unitAt(h.neighbor);
    if (v < 0 || s.sideOf(v) == side) continue;
    ++n;
    *strongest = std::max(*strongest, static_cast<int>(s.unit(v).vc));
  }
  return n;
}

// Whether unit u stands on an occupied objective its side values (it holds it by being there).
inline bool garrisons(const env::GameState& s, int u) {
  for (const env::Objective& o : s.sc().objectives()) {
    if (!o.passing && o.cell == s.unit(u).cell && o.vp[static_cast<size_t>(s.sideOf(u))] > 0)
      return true;
  }
  return false;
}

// How much a loss of one VC of unit u hurts its side: guns and generals count more.
inline double unitWorth(const env::GameState& s, int u, const HeuristicWeights& w) {
  if (env::isGeneral(s.typeOf(u))) return w.general_worth;
  if (env::isArtillery(s.typeOf(u))) return w.artillery_worth;
  return 1.0;
}

// The most VP an objective on `cell` is worth to `side` (0 if none).
inline int objectiveVpAt(const env::GameState& s, env::CellId cell, int side) {
  int vp = 0;
  for (const env::Objective& o : s.sc().objectives()) {
    if (o.cell == cell) vp = std::max(vp, o.vp[static_cast<size_t>(side)]);
  }
  return vp;
}

}  // namespace morne::agents
