#pragma once
// A deliberately slow, obviously-correct reference for legal-action generation, used to
// cross-check env::legalActions at every node of small perft trees (lc0's pseudo-vs-legal
// idea). It tries every action of the whole action space and decides each one from the raw
// scenario data (hexside features, terrain costs, the positions of all units) without the
// engine's precomputed tables, unit_at index or shared helpers.

#include <vector>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::test {

// All legal actions of `s`, sorted.
std::vector<env::Action> referenceLegalActions(const env::GameState& s);

}  // namespace morne::test
