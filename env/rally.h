#pragma once
// The rally phase (§7): at the end of a player-turn, units below their initial MO regain
// morale by staying near and still under their corps general. Internal to env/.

#include "env/events.h"
#include "env/game_state.h"

namespace morne::env {

// MO that unit u would regain now, before capping at its initial MO.
int rallyGain(const GameState& s, int u);

// The rally phase of the side(s) the rally_sides switch names, all units at once from the
// positions at its start.
void rallyPhase(GameState& s, EventLog* log);

}  // namespace morne::env
