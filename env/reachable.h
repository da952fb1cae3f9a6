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

// Where unit u could go if its side's movement phase began now, the rest of the position as it
// is: the same search on a copy in which u's side is phasing and u has the movement points,
// command and road flag of the start of a movement phase, its per-turn marks cleared. Shows the
// threat of an enemy unit, or a plan for the next turn. Empty for a unit off the map.
struct NextMovement {
  int mp = 0;  // the movement points u would have
  std::vector<ReachableHex> hexes;
};
NextMovement reachableHexesNextMovement(const GameState& s, int u);

}  // namespace morne::env
