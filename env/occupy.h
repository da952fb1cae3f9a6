#pragma once
// Putting units on hexes and taking them off: the one place that keeps stacking, passing-hex
// ownership (V-HEX-2, V-HEX-3) and fort control (M-FORT-1) consistent whenever a unit moves,
// retreats, advances, is placed or is eliminated. Internal to env/.

#include "env/events.h"
#include "env/game_state.h"

namespace morne::env {

// Why a unit enters a hex; retreats and advances take passing hexes only when the
// passing_hex_by_retreat_and_advance switch says so.
enum class EntryCause : uint8_t { kMovement, kPlacement, kRetreat, kAdvance };

// Moves unit u onto the empty cell `to` and updates ownership and fort control.
// Precondition: `to` is empty.
void occupyHex(GameState& s, int u, CellId to, EntryCause cause, EventLog* log);

// Removes unit u from the map (U-ELIM-1).
void eliminateUnit(GameState& s, int u, EventLog* log);

// Changes unit u's MO by `delta`, clamped to 0..initial MO; returns the change applied.
// Generals have no MO and are left alone.
int changeMorale(GameState& s, int u, int delta, EventLog* log);

// Takes `points` of VC from unit u and eliminates it when VC reaches 0 (U-ELIM-1, F-LOSS-4).
void loseVc(GameState& s, int u, int points, EventLog* log);

}  // namespace morne::env
