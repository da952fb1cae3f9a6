#pragma once
// The actions agents choose from: the legal actions less the steps that take a unit back into
// a hex it left with one of its last two steps this player-turn (a 2-step back-and-forth or a
// 3-step loop around a hex corner). The rules allow such steps (MV-GEN-1), but they end where
// the unit already stood and only spend movement points, so a search that may take them spends
// its simulations on moves that cancel out, and a game shows units dancing (docs/actions.md,
// "Agent-side pruning"). Two straight steps back stay, once per excursion, for the reasons the
// rules give: from a passing hex just taken (V-HEX-2), and cavalry that must move before it
// charges going back into contact (MV-CHG-5). Clients and the protocol's `legal` still offer
// every legal action.

#include "env/action.h"
#include "env/game_state.h"

namespace morne::env {

// Whether a legal action returns a unit into a hex it left with one of its last two steps,
// less the two exceptions above.
bool isReturnStep(const GameState& s, Action a);

// Fills `out` with the legal actions in canonical order, less the return steps.
void agentActions(const GameState& s, ActionList& out);

// The same with the pruning switched by `prune`; off, every legal action (an agent's `prune=0`,
// to measure what the pruning changes).
void agentActions(const GameState& s, ActionList& out, bool prune);

}  // namespace morne::env
