#pragma once
// Artillery fire (§4): the bombardment phase and reaction fire during the opponent's movement
// phase. A fire is resolved by chance events: the fire d4 (F-RES-1), then one coin per loss
// point (or one coin for all of them, switch) deciding MO or VC (F-LOSS-*). Internal to env/.

#include "env/action.h"
#include "env/events.h"
#include "env/game_state.h"
#include "env/tactics.h"

namespace morne::env {

// The modifiers of one fire (F-MOD-1), each listed so previews can show them.
struct FireModifiers {
  int distance = 0;     // 0, -1, -2, -3, -4 for 1..5 hexes
  int target_type = 0;  // cavalry or general +1, artillery -2
  int terrain = 0;      // village -1, fort -2
  int reaction = 0;     // reaction fire -1
  int total() const { return distance + target_type + terrain + reaction; }
};
FireModifiers fireModifiers(const GameState& s, int gun, int target, bool reaction);

// Whether artillery unit u may bombard this phase (F-GEN-1, F-GEN-4, F-GEN-7).
bool canBombard(const GameState& s, int gun);

// Appends the phasing side's fire actions, sorted (F-GEN-1..3).
void generateFireActions(const GameState& s, ActionList& out);

// Declares a legal fire; leaves the fire d4 pending.
void declareFire(GameState& s, int gun, int target, EventLog* log);

// Resolves the pending fire d4 / loss coin with the outcome `value`.
void resolveFireDie(GameState& s, int value, EventLog* log);
void resolveFireCoin(GameState& s, int value, EventLog* log);

// Coin outcomes of kFireCoin.
inline constexpr int kCoinMorale = 1;
inline constexpr int kCoinStrength = 2;

// --- reaction fire (F-REACT-*) ---

// Whether the phasing unit `mover`, having just ended a step, would draw reaction fire from at
// least one enemy artillery unit (F-REACT-1..4).
bool reactionFireTriggered(const GameState& s, int mover);

// Resolves every reaction fire the step of `mover` triggers, one artillery unit after the
// other (F-REACT-7); leaves the first fire d4 pending, or does nothing if none fires.
void startReactionFire(GameState& s, int mover, EventLog* log);

// After a fire (and the target's test, V-MOR-6): the next reaction fire at the unit in
// `reacting_to`, if any; nothing outside reaction fire.
void continueReactionFire(GameState& s, EventLog* log);

}  // namespace morne::env
