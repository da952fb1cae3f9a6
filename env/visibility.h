#pragma once
// Hidden information (S-4): the second player does not see where the first player placed his
// units at set-up until game turn 2. The engine holds the full position (search and training
// need it); what a side may know is derived here, for clients bound to a side and for agents,
// which decide from what their side may know.

#include "env/game_state.h"

namespace morne::env {

// Whether `viewer` may not see where unit u is now: in game turn 1, a unit of the first player
// placed at set-up, seen by the second player.
bool hiddenFrom(const GameState& s, int u, int viewer);

// Whether the decisions of the side to move are hidden from `viewer` now: the first player's in
// game turn 1, seen by the second player, in a scenario where the first player places units at
// set-up (where they go is hidden, and so is its reasoning); nothing is hidden otherwise.
bool decisionsHiddenFrom(const GameState& s, int viewer);

// Whether any unit is hidden from `viewer` now.
bool hidesAny(const GameState& s, int viewer);

// The position as `viewer` knows it: every unit hidden from him taken off the map and marked as
// still awaiting set-up. Agents of `viewer` decide from it. The owners of objective hexes are
// left as they are (a hidden unit that passed one shows there).
GameState publicView(const GameState& s, int viewer);

}  // namespace morne::env
