#pragma once
// The combat phase (§6): who may attack whom, automatic supports, terrain effects on strengths,
// the odds ratio, die modifiers (all in combatOdds, which the declaration and the protocol's
// preview share), and the resolution: d6 on the combat results table, simultaneous losses,
// morale tests, retreats, victorious units and advance after combat (C-RES-1). Internal to env/.

#include "env/action.h"
#include "env/events.h"
#include "env/fixed_vector.h"
#include "env/game_state.h"

namespace morne::env {

// Terrain effects applied to one contributor's VC (C-TER-1..4).
namespace vc_effect {
inline constexpr uint8_t kDoubled = 1u << 0;        // infantry in woods, village or fort
inline constexpr uint8_t kHalved = 1u << 1;         // cavalry attacking out of a fort
inline constexpr uint8_t kStreamDivided = 1u << 2;  // across a stream: VC / 1.5
inline constexpr uint8_t kVictorious = 1u << 3;     // supports although in contact with others
}  // namespace vc_effect

// One unit's part in a combat: the attacker, the defender or a support.
struct CombatContributor {
  int8_t unit = -1;
  bool attacking = false;  // on the attacker's side
  bool principal = false;  // the attacker or the defender itself (else a support)
  int8_t base_vc = 0;
  int8_t vc = 0;        // after terrain effects
  uint8_t effects = 0;  // vc_effect bits
};

// Everything that decides a combat before the die is rolled.
struct CombatOdds {
  FixedVector<CombatContributor, 16> units;
  int attack = 0;   // A (C-RATIO-1)
  int defence = 0;  // D
  int column = 0;   // odds column -7 (1:8) .. 7 (8:1) (C-RATIO-2..4)
  // Die modifiers (C-DRM-*, C-TER-1).
  int hamlet = 0;
  int slope = 0;
  int marsh = 0;
  int dune = 0;
  int fort = 0;
  int morale = 0;
  int dieModifier() const { return hamlet + slope + marsh + dune + fort + morale; }
};

// The odds of `attacker` attacking the adjacent `defender` now, supports included.
CombatOdds combatOdds(const GameState& s, int attacker, int defender);

// Whether `attacker` may attack `defender` now (C-GEN-1..4, C-RATIO-4 switch).
bool canAttack(const GameState& s, int attacker, int defender);

// Terrain rank of hex c for the advance after combat (C-ADV-3): village, woods, fort 2 on the
// infantry table (0 on the mounted one), hamlet 1, marsh and dunes -1, else 0.
int advanceTerrainRank(const Scenario& sc, CellId c, bool infantry_table);

// The unit an attack action targets, or -1.
int attackTarget(const GameState& s, Action a);

// Appends the phasing side's attack actions, sorted.
void generateAttackActions(const GameState& s, ActionList& out);

// Declares a legal attack; leaves the combat d6 pending.
void declareAttack(GameState& s, int attacker, int defender, EventLog* log);

// Resolves the pending combat d6 / morale test d9 with the outcome `value`, then everything
// the result causes that needs no further die.
void resolveCombatDie(GameState& s, int value, EventLog* log);
void resolveCombatMoraleTest(GameState& s, int value, EventLog* log);

// Whether the victorious `unit` standing at `from` advances into the vacated hex `to`
// (C-ADV-2..5, C-ADV-7).
bool advances(const GameState& s, int unit, CellId from, CellId to);

// Morale used by the combat morale modifier: MO, or VC + radius for a general (C-DRM-3).
int combatMorale(const GameState& s, int u);

}  // namespace morne::env
