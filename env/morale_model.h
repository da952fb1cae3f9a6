#pragma once
// How a morale test is decided under each morale model (V-MOR-*, docs/variants.md): the die
// and its exact distribution, the factor or score with its modifiers, and the graded result.
// What a result then does to the unit is env/rout.h. Internal to env/.

#include <string_view>

#include "env/chance.h"
#include "env/game_state.h"
#include "env/tactics.h"

namespace morne::env {

// "obey", "uncontrolled", "halt", "retreat", "rout", "flight".
std::string_view moraleOutcomeName(MoraleOutcome o);

// Why a unit tests; the occasion decides some modifiers and, outside combat, what the result
// does (V-MOR-6).
enum class TestOccasion : uint8_t {
  kCombat,         // the CRT gave it a test (C-MOR-1)
  kCharge,         // it is charged by cavalry (MV-CHG-5)
  kPassedThrough,  // friendly routers passed through its hex (V-ROUT-4)
  kRally,          // a routed unit tries to rally (V-ROUT-5)
  kStopPursuit,    // a pursuer tries to stop (V-PUR-5)
  kPoorOdds,       // infantry attacking at 1:2 or worse, before the die (V-MOR-6)
  kAfterFire,      // a unit fired at (V-MOR-6, switch ancient_tests)
};

struct MoraleTest {
  int unit = -1;
  TestOccasion occasion = TestOccasion::kCombat;
  int responsible = -1;  // the enemy unit that caused the test, if any
  int modifier = 0;      // the charge modifier (MV-CHG-5): added to the die, so it hurts
};

// Whether the test has one certain result under Morne Plaine's d9 (MO 0 fails, MO 9 passes),
// and so rolls no die (C-MOR-1). The variant models always roll.
bool moraleTestIsCertain(const GameState& s, const MoraleTest& t);

// The faces of the test's die with their exact probabilities: d9 (mp), the sums 2..12 of 2d6
// with k/36 (ancient_2d6) or d6 (graded_d6).
void moraleTestOutcomes(const RuleSwitches& rules, ChanceList& out);

// The result of the test for die value `value` (for a certain mp test, any value).
MoraleOutcome moraleOutcome(const GameState& s, const MoraleTest& t, int value);

// The number a test's die is read against, for the logs: MO (mp), the factor (ancient_2d6) or
// the score without the die (graded_d6).
int moraleFactorShown(const GameState& s, const MoraleTest& t);

// ancient_2d6: the factor 2d6 must not exceed, modifiers included (V-MOR-2, V-MOR-3).
int ancientFactor(const GameState& s, const MoraleTest& t);

// graded_d6: base factor plus the tactical factors, the d6 excluded (V-MOR-4, V-MOR-5).
int gradedScoreWithoutDie(const GameState& s, const MoraleTest& t);

// Seed 002's result table: the result of `score` for a unit of `quality` (V-MOR-4).
MoraleOutcome gradedResult(Quality quality, int score);

// Seed 002's remaining-strength modifier (0 or negative) for VC `vc` of `initial_vc`.
int remainingStrengthModifier(Quality quality, int vc, int initial_vc);

}  // namespace morne::env
