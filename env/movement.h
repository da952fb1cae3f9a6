#pragma once
// The movement phase (§5): movement allowance, step costs (terrain, hexsides, slopes, tracks,
// roads), marsh tests, zones of control, stacking, demoralised restrictions and cavalry charges.
// Internal to env/: the public entry points are in env/rules.h.

#include "env/action.h"
#include "env/events.h"
#include "env/game_state.h"
#include "env/tactics.h"

namespace morne::env {

// Movement points of unit u for this player-turn's movement phase (MV-GEN-3): MA, halved if
// out of command (CMD-3), reduced after firing (F-GEN-6), 0 if held in a marsh (switch).
int movementAllowance(const GameState& s, int u);

// Whether cavalry unit u may charge the unit in direction `dir` (MV-CHG-1, MV-CHG-5).
bool canCharge(const GameState& s, int u, int dir);

// Appends the movement-phase actions (steps and charges) of the phasing side, sorted.
void generateMovementActions(const GameState& s, ActionList& out);

// Whether the phasing side has at least one step or charge (stops at the first one found).
bool hasMovementAction(const GameState& s);

// Appends the charges of the cavalry whose charge window is open (F-REACT-6).
void generateWindowCharges(const GameState& s, ActionList& out);

// "hold": the cavalry in the charge window does not charge; its reaction fire follows.
void holdCharge(GameState& s, EventLog* log);

// Applies a legal step; may leave a marsh test pending.
void applyStep(GameState& s, int u, int dir, EventLog* log);

// Declares a legal charge; leaves the charge test pending.
void declareCharge(GameState& s, int u, int dir, EventLog* log);

// Resolves the pending marsh test with the d4 face `value`.
void resolveMarshTest(GameState& s, int value, EventLog* log);

// Resolves the pending charge test with the d9 face `value`.
void resolveChargeTest(GameState& s, int value, EventLog* log);

}  // namespace morne::env
