#pragma once
// The rules engine's public interface: start a game, list legal actions, apply an action,
// resolve chance events, read the result. Everything works on a GameState value:
//
//   GameState s = newGame(*scenario);
//   while (!s.isTerminal()) {
//     if (s.isChanceNode()) { applyChance(s, sampleChance(s, rng)); continue; }
//     ActionList legal; legalActions(s, legal);
//     applyAction(s, choose(legal));
//   }
//   GameResult r = gameResult(s);
//
// None of these functions allocates or throws; preconditions are checked by assert (and by
// isLegal at the boundaries, e.g. the protocol). Phases that offer the phasing player no
// decision are passed through automatically and reported as kPhaseSkipped events.

#include <array>
#include <cstdint>

#include "env/action.h"
#include "env/chance.h"
#include "env/events.h"
#include "env/game_state.h"
#include "env/rng.h"
#include "env/victory.h"

namespace morne::env {

// The initial state of a game of `sc` (game turn 1, first player to act). The scenario must
// outlive the state.
GameState newGame(const Scenario& sc, EventLog* log = nullptr);

// Fills `out` with the legal actions in canonical (sorted) order. Empty at chance nodes and at
// the end of the game.
void legalActions(const GameState& s, ActionList& out);

// Whether `a` is legal in `s` (a linear search of legalActions).
bool isLegal(const GameState& s, Action a);

// The unit the next "place" action puts on the map during set-up (the phasing side's
// lowest-index unit still off the map, S-2), or -1.
int nextUnitToPlace(const GameState& s);

// Applies a legal action. Precondition: isLegal(s, a).
void applyAction(GameState& s, Action a, EventLog* log = nullptr);

// The outcomes of the pending chance event, in increasing value; their probabilities sum to
// exactly 1. Precondition: s.isChanceNode().
void chanceOutcomes(const GameState& s, ChanceList& out);

// Applies the outcome `value` of the pending chance event. Precondition: value is one of
// chanceOutcomes(s).
void applyChance(GameState& s, int value, EventLog* log = nullptr);

// Applies the outcome `value` of the pending chance event and everything it causes that needs
// no further decision or die, but does not move on when the phasing player is left without a
// decision (applyChance does). For previews, which read the state right after a resolution.
void resolvePendingChance(GameState& s, int value, EventLog* log = nullptr);

// Draws an outcome of the pending chance event from `rng` with the exact probabilities.
int sampleChance(const GameState& s, Rng& rng);

// Plays one ply at random: at a chance node an outcome drawn with its exact probability, else
// a legal action chosen uniformly. `scratch` holds the legal list (reused: nothing allocates).
// Precondition: !s.isTerminal().
void playRandomPly(GameState& s, Rng& rng, ActionList& scratch);

}  // namespace morne::env
