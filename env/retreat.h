#pragma once
// Retreats (§6.8): one hex, chosen by the engine, away from the unit responsible for it. Used
// by failed charge tests now and by combat results. Internal to env/.

#include "env/events.h"
#include "env/game_state.h"

namespace morne::env {

// The hex unit u would retreat to, away from a responsible unit standing at `responsible_cell`
// (C-RET-2 candidates, C-RET-4 priority), or kNoCell if no hex qualifies (C-RET-3).
CellId chooseRetreat(const GameState& s, int u, CellId responsible_cell);

// Retreats unit u: moves it to chooseRetreat's hex and applies the morale loss for entering
// enemy zones of control (C-RET-7, the responsible unit excepted), or eliminates it when no
// hex qualifies. Returns the destination, or kNoCell if the unit was eliminated.
CellId retreatUnit(GameState& s, int u, int responsible, CellId responsible_cell, EventLog* log);

}  // namespace morne::env
