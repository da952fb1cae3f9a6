#pragma once
// The turn sequence (G-TURN-*): player-turns, phases, the command check, per-turn bookkeeping
// and the end of the game. Internal to env/; env/rules.h is the public face.
//
//   game turn t:  first player's player-turn, then the second player's (G-TURN-1)
//   player-turn:  [set-up, turn 1 only] -> command check -> bombardment -> movement -> combat
//                 -> rally -> end                                          (G-TURN-2)
//
// A phase that offers the phasing player no decision (no gun with a target, no unit able to
// move, no attack) is passed through at once; the rally phase is always automatic.

#include "env/events.h"
#include "env/game_state.h"

namespace morne::env {

// Starts the first player-turn of a fresh state (units placed, hash computed).
void startGame(GameState& s, EventLog* log);

// Ends the current decision phase and moves on to the next one that needs a decision (or to
// the end of the game).
void endPhase(GameState& s, EventLog* log);

// Whether the phasing player has any action other than ending the phase.
bool hasDecision(const GameState& s);

// Whether unit u is within its corps general's command radius now (CMD-2, CMD-4).
bool inCommand(const GameState& s, int u);

// The command check of the phasing side (CMD-2): sets or clears each unit's in_command flag.
void checkCommand(GameState& s, EventLog* log);

// Start of the movement phase: movement points (MV-GEN-3) and road flags (MV-ROAD-2) of the
// phasing side's units.
void prepareMovementPhase(GameState& s);

// Resumes the sequence after a resolution that may have left the phasing player nothing to
// decide (for instance the last unit placed at set-up).
void continueIfIdle(GameState& s, EventLog* log);

}  // namespace morne::env
