#pragma once
// Where a unit can go this phase: every hex reachable by a sequence of legal steps, with the
// cheapest cost and path. Answers the client's "show me where this unit can move". Not used by
// search (it allocates).

#include <vector>

#include "env/game_state.h"

namespace morne::env {

struct ReachableHex {
  CellId cell = kNoCell;
  int cost = 0;                // movement points spent on the cheapest path
  bool stops = false;          // entering it ends the unit's movement (enemy ZOC, MV-ZOC-2)
  bool through_marsh = false;  // the path enters a marsh: a marsh test may stop it earlier
  std::vector<CellId> path;    // hexes entered, in order, ending with `cell`
};

// Reachable hexes of unit u, sorted by cell, from its current position, movement points and
// road flag, as far as the rules allow in the current movement phase (same checks as the
// legal step generator; marsh tests are assumed passed). Empty if u cannot move now.
std::vector<ReachableHex> reachableHexes(const GameState& s, int u);

}  // namespace morne::env
