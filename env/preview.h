#pragma once
// Previews: what a player asks on screen before acting. "What are my odds if I attack here?",
// "what will this gun do to that unit?". A preview lists every factor (the same functions the
// resolution uses) and the exact distribution of results, obtained by resolving the action on a
// copy of the state through every combination of dice: a preview agrees with what applyAction
// will do by construction.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "env/combat.h"
#include "env/fire.h"
#include "env/game_state.h"

namespace morne::env {

// An exact probability num/den.
struct Probability {
  uint64_t num = 0;
  uint64_t den = 1;
  double value() const { return static_cast<double>(num) / static_cast<double>(den); }
};

// Where a unit ends up after a resolution.
struct UnitOutcome {
  int unit = -1;
  int vc = 0;
  int mo = 0;
  CellId cell = kNoCell;  // kNoCell when eliminated
  bool retreated = false;
  bool advanced = false;
  bool victorious = false;
  int retreat_zocs = 0;   // enemy zones of control it retreated into: 1 MO lost each (C-RET-7)
  bool routed = false;    // variant modules (docs/variants.md): routed, pursuing, or held by a
  bool pursuing = false;  // halt result at the end of the resolution
  bool halted = false;
  friend auto operator<=>(const UnitOutcome&, const UnitOutcome&) = default;
};

// One distinct way a resolution can end, with its probability.
struct Outcome {
  std::vector<UnitOutcome> units;
  Probability probability;
};

struct FirePreview {
  int gun = -1;
  int target = -1;
  int vt = 0;
  int distance = 0;
  FireModifiers modifiers;
  std::vector<int> losses_by_die;  // loss points for d4 = 1..4
  std::vector<Outcome> outcomes;   // the target's possible states after the fire
};

struct CombatPreview {
  CombatOdds odds;
  struct DieRow {
    int d6 = 0;
    int die = 0;  // modified and clamped (C-DIE-1)
    CrtCell result;
  };
  std::vector<DieRow> dice;       // d6 = 1..6
  std::vector<Outcome> outcomes;  // attacker and defender after the whole resolution
  // The morale tests (C-MOR-1, V-MOR-*) of the attacker [0] and the defender [1]: how likely
  // each is to take one, and to fail it (a result that moves it: retreat, rout or flight).
  struct MoraleTestOdds {
    Probability tested;
    Probability failed;
  };
  std::array<MoraleTestOdds, 2> morale_tests;
  // The attacker fails its test to attack at poor odds and does not attack (V-MOR-6).
  Probability attack_refused;
};

// A gun that may fire at a unit as reaction to its step (F-REACT-2..8).
struct ReactingGun {
  int gun = -1;
  Probability probability;         // that it fires (a marsh test or an earlier fire may stop it)
  FireModifiers modifiers;         // reaction -1 included
  std::vector<int> losses_by_die;  // loss points for d4 = 1..4
};

// What one movement step will do before the player makes it: its cost, whether it ends the
// unit's movement, the marsh test, whether a cavalry unit is first offered a charge, and the
// reaction fire it draws, with the exact distribution of the unit's state once every die of
// the step is thrown (assuming "hold" when a charge is offered).
struct StepPreview {
  int unit = -1;
  CellId from = kNoCell;
  CellId to = kNoCell;
  int cost = 0;                   // movement points the step spends
  int mp_left = 0;                // after it
  bool stops = false;             // it enters an enemy-controlled hex (MV-ZOC-2)
  bool marsh_test = false;        // it enters a marsh (MV-MARSH-1)
  bool charge_offered = false;    // cavalry may charge before the reaction fire (F-REACT-6)
  std::vector<ReactingGun> guns;  // in the order they fire
  std::vector<Outcome> outcomes;  // the unit after the step's dice
};

// Preview of the legal fire action `a` (bombardment). Precondition: isLegal(s, a).
FirePreview previewFire(const GameState& s, Action a);

// Preview of the legal attack action `a`. Precondition: isLegal(s, a).
CombatPreview previewCombat(const GameState& s, Action a);

// Preview of the legal move action `a`. Precondition: isLegal(s, a) and a is a move.
StepPreview previewStep(const GameState& s, Action a);

}  // namespace morne::env
