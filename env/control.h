#pragma once
// Zones of control and contact between units (M-CONTACT-1, MV-ZOC-1..2, U-DEM-1). Inline: these
// run inside legal-move generation for every candidate step.

#include "env/game_state.h"

namespace morne::env {

// Whether unit u exerts a zone of control: on the map, not demoralised, and a general only if
// the generals_exert_zoc switch is on (MV-ZOC-1).
inline bool exertsZoc(const GameState& s, int u) {
  if (!s.onMap(u) || s.demoralised(u)) return false;
  return !isGeneral(s.typeOf(u)) || s.sc().rules().generals_exert_zoc;
}

// Whether the ZOC of a unit standing across hexside h reaches the other hex (MV-ZOC-1).
inline bool zocCrosses(const GameState& s, const Hexside& h) {
  return h.contact || s.sc().rules().zoc_across_rivers_and_cliffs;
}

// Number of units hostile to `side` whose ZOC covers cell c, not counting unit `ignore`
// (C-RET-7 counts them; MV-ZOC-2 only asks whether there is one).
inline int countEnemyZoc(const GameState& s, CellId c, int side, int ignore = -1) {
  const Scenario& sc = s.sc();
  int count = 0;
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(c, d);
    if (h.neighbor == kNoCell) continue;
    const int v = s.unitAt(h.neighbor);
    if (v < 0 || v == ignore || s.sideOf(v) == side) continue;
    if (exertsZoc(s, v) && zocCrosses(s, h)) ++count;
  }
  return count;
}

// Whether cell c is enemy-controlled for a unit of `side` (MV-ZOC-2).
inline bool enemyControlled(const GameState& s, CellId c, int side, int ignore = -1) {
  const Scenario& sc = s.sc();
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(c, d);
    if (h.neighbor == kNoCell) continue;
    const int v = s.unitAt(h.neighbor);
    if (v < 0 || v == ignore || s.sideOf(v) == side) continue;
    if (exertsZoc(s, v) && zocCrosses(s, h)) return true;
  }
  return false;
}

// Whether unit u is in contact with at least one enemy unit (M-CONTACT-1).
inline bool inContactWithEnemy(const GameState& s, int u) {
  const Scenario& sc = s.sc();
  const CellId c = s.unit(u).cell;
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(c, d);
    if (h.neighbor == kNoCell || !h.contact) continue;
    const int v = s.unitAt(h.neighbor);
    if (v >= 0 && s.sideOf(v) != s.sideOf(u)) return true;
  }
  return false;
}

}  // namespace morne::env
