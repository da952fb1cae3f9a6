#pragma once
// The combat phase (§6): who may attack whom, automatic supports, terrain effects on strengths,
// the odds ratio, die modifiers (all in combatOdds, which the declaration and the protocol's
// preview share), and the resolution: d6 on the combat results table, simultaneous losses,
// morale tests, retreats, victorious units and advance after combat (C-RES-1). Internal to env/.

#include "env/action.h"
#include "env/events.h"
#include "env/fixed_vector.h"
#include "env/game_state.h"
#include "env/tactics.h"

namespace morne::env {

// Appends the phasing side's attack actions, sorted.
void generateAttackActions(const GameState& s, ActionList& out);

// Declares a legal attack; leaves the combat d6 pending, or first the attacker's test when it
// attacks at poor odds (testsBeforeAttacking).
void declareAttack(GameState& s, int attacker, int defender, EventLog* log);

// V-MOR-7, seed 001: « Toute unité d'infanterie souhaitant attaquer un ennemi à 1/2 ou moins »
// tests first under ancient_2d6: infantry (line, light and dromedaries, which fight as
// infantry: U-TYPE-3) attacking on the CRT's 1:2 column or worse, unless the defender is routed
// or taken in flank or rear.
bool testsBeforeAttacking(const GameState& s, int attacker, int defender, int column);

// Starts the combat of a declared attack at `odds` (combatOdds of the two): the defender is
// engaged and the combat d6 pending.
void startCombat(GameState& s, int attacker, int defender, const CombatOdds& odds);

// Resolves the pending combat d6 / morale test d9 with the outcome `value`, then everything
// the result causes that needs no further die.
void resolveCombatDie(GameState& s, int value, EventLog* log);
void resolveCombatMoraleTest(GameState& s, int value, EventLog* log);

// Whether the victorious `unit` standing at `from` advances into the vacated hex `to`
// (C-ADV-2..5, C-ADV-7).
bool advances(const GameState& s, int unit, CellId from, CellId to);

// C-RATIO-2..4: the odds column of attack strength A against defence D, -7 (1:8) .. 7 (8:1).
int oddsColumn(int attack, int defence);

// Seed 003's melee die modifier of `attacker` against `defender` (V-MEL-2): 0 unless the
// melee_factors switch is on.
int meleeFactorModifier(const GameState& s, int attacker, int defender);

// V-MEL-2 flank or rear: the defender is in contact with another enemy unit in order (the one
// it faces), and the attacker's hexside is not next to that unit's. With two or more such
// units, the flank_outside switch says whether the attacker must be outside every one's front
// (default) or any one's.
bool attackFromFlankOrRear(const GameState& s, int attacker, int defender);

// Morale used by the combat morale modifier: MO, or VC + radius for a general (C-DRM-3).
int combatMorale(const GameState& s, int u);

}  // namespace morne::env
