#pragma once
// Previews: what a player asks on screen before acting. "What are my odds if I attack here?",
// "what will this gun do to that unit?". A preview lists every factor (the same functions the
// resolution uses) and the exact distribution of results, obtained by resolving the action on a
// copy of the state through every combination of dice: a preview agrees with what applyAction
// will do by construction.

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
};

// Preview of the legal fire action `a` (bombardment). Precondition: isLegal(s, a).
FirePreview previewFire(const GameState& s, Action a);

// Preview of the legal attack action `a`. Precondition: isLegal(s, a).
CombatPreview previewCombat(const GameState& s, Action a);

}  // namespace morne::env
