#include "env/visibility.h"

namespace morne::env {

bool hiddenFrom(const GameState& s, int u, int viewer) {
  return s.turn == 1 && viewer == 1 && s.sideOf(u) == 0 && s.sc().unit(u).start == kNoCell &&
         s.onMap(u);
}

bool decisionsHiddenFrom(const GameState& s, int viewer) {
  if (s.turn != 1 || viewer != 1 || s.side != 0) return false;
  for (const UnitInfo& u : s.sc().units()) {
    if (u.side == 0 && u.start == kNoCell) return true;  // the first player places at set-up
  }
  return false;
}

bool hidesAny(const GameState& s, int viewer) {
  for (int u = 0; u < s.num_units; ++u) {
    if (hiddenFrom(s, u, viewer)) return true;
  }
  return false;
}

GameState publicView(const GameState& s, int viewer) {
  GameState view = s;
  for (int u = 0; u < s.num_units; ++u) {
    if (!hiddenFrom(s, u, viewer)) continue;
    setUnitCell(view, u, kNoCell);
    setUnitFlags(view, u, unit_flag::kAwaitingSetup);
    setUnitMp(view, u, 0);
  }
  return view;
}

}  // namespace morne::env
