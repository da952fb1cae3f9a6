#pragma once
// Agents decide from what their side may know (S-4, env/visibility.h): the second player sets
// up, and plays game turn 1, without seeing where the first player placed his units. The
// engine, the arena, self-play and the protocol all ask agents through these functions.

#include "agents/agent.h"
#include "env/game_state.h"

namespace morne::agents {

// The position the side to move in `s` decides from: `s` itself, or its public view while
// units are hidden from that side.
env::GameState positionToDecideFrom(const env::GameState& s);

// `a` when it is legal in `s`. An action chosen on the public view may meet a hidden unit (a
// step into the hex it holds): then the most visited candidate of `d` legal in `s`, or the
// first legal action.
env::Action legalChoice(const env::GameState& s, env::Action a, const Decision& d);

// The agent's decision for the side to move in `s`, made from what that side may know, with an
// action legal in `s`. Precondition: `s` is a decision node.
Decision decideWithWhatItKnows(Agent& agent, const env::GameState& s);

}  // namespace morne::agents
