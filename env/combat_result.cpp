// Applying a combat result (C-RES-1), step by step:
//   1. both combatants lose the VC of the CRT cell at once; VC 0 eliminates (C-ELIM-1);
//   2. surviving combatants with an asterisk test morale, defender first (C-MOR-1); a d9 is a
//      chance event unless the result is certain (MO 0 always fails, MO 9 always passes); the
//      morale_model switch may decide the test otherwise (V-MOR-*);
//   3. those who failed retreat, defender first, away from the other's hex at declaration (or
//      halt, rout or flee under the failed_test switch, V-ROUT-*);
//   4. victorious units and their morale gain (C-VIC-*);
//   5. advance after combat into the vacated hex (C-ADV-*), or pursuit of a router (V-PUR-*).

#include <algorithm>

#include "env/combat.h"
#include "env/morale_model.h"
#include "env/occupy.h"
#include "env/rout.h"

namespace morne::env {

namespace {

// C-ADV-5: an objective hex for the advancing unit's side (or either side, by switch).
bool isObjectiveFor(const Scenario& sc, CellId c, int side) {
  const int o = sc.objectiveIndex(c);
  if (o < 0) return false;
  if (sc.rules().advance_objective_hexes == AdvanceObjectives::kEitherSide) return true;
  return sc.objectives()[static_cast<size_t>(o)].vp[static_cast<size_t>(side)] > 0;
}

// Seed 001 under the switch ancient_tests (V-MOR-8): « Toute unité suite à un tir ou un
// combat », the defender's tests (« le joueur en défense fait les tests de moral »).
bool defenderAlwaysTests(const RuleSwitches& rules) {
  return rules.morale_model == MoraleModel::kAncient2d6 &&
         rules.ancient_tests == AncientTests::kEveryFireAndCombat;
}

// The morale test of combatant u (C-MOR-1): true while a d9 is still needed.
bool testMorale(GameState& s, int u, uint8_t tests, uint8_t tested, uint8_t failed, EventLog* log) {
  CombatRecord c = s.combat;
  if (!(c.flags & tests) || (c.flags & tested)) return false;
  if (!s.onMap(u) || isGeneral(s.typeOf(u))) {  // eliminated, or a general: no test (CMD-6)
    c.flags |= tested;
    setCombat(s, c);
    return false;
  }
  const int mo = s.unit(u).mo;
  if (!moraleTestIsCertain(s, {u, TestOccasion::kCombat, -1, 0})) {
    setPending(s, {ChanceKind::kMoraleTest, static_cast<int8_t>(u), -1, 0, 0});
    return true;
  }
  // Certain results need no die: MO 0 always fails, MO 9 always passes.
  c.flags |= tested | (mo == 0 ? failed : 0);
  setCombat(s, c);
  record(log, {.type = EventType::kMoraleTest,
               .unit = static_cast<int8_t>(u),
               .b = static_cast<int16_t>(mo),
               .c = static_cast<int16_t>(mo == 0 ? 1 : 0)});
  return false;
}

void makeVictorious(GameState& s, int u, bool eliminated_enemy, EventLog* log) {
  addUnitFlags(s, u, unit_flag::kVictorious);
  record(log, {.type = EventType::kVictorious, .unit = static_cast<int8_t>(u)});
  if (eliminated_enemy) changeMorale(s, u, 1, log);  // C-VIC-3 (generals: no MO)
}

void advance(GameState& s, int u, CellId to, EventLog* log) {
  const CellId from = s.unit(u).cell;
  if (s.unitAt(to) >= 0 || !advances(s, u, from, to)) return;
  occupyHex(s, u, to, EntryCause::kAdvance, log);
  addUnitFlags(s, u, unit_flag::kMoved);  // C-ADV-6: counts as moving for rally
  record(log,
         {.type = EventType::kAdvance, .unit = static_cast<int8_t>(u), .from = from, .to = to});
}

// The test result of a combatant: the failure of C-MOR-1, or a variant model's graded result
// kept in the record (V-MOR-*).
MoraleOutcome outcomeOf(const CombatRecord& c, bool defender) {
  const int packed = defender ? c.outcomes & 15 : c.outcomes >> 4;
  if (packed != 0) return static_cast<MoraleOutcome>(packed);
  const uint8_t failed = defender ? combat_flag::kDefenderFailed : combat_flag::kAttackerFailed;
  return (c.flags & failed) ? MoraleOutcome::kRetreat : MoraleOutcome::kObey;
}

// Seed 003 fatigue: one point per combat fought, up to the cap (V-MEL-3).
void addFatigue(GameState& s, int u) {
  if (!s.onMap(u) || s.sc().rules().melee_factors == MeleeFactors::kNone) return;
  MoraleStatus m = s.moraleOf(u);
  m.fatigue = static_cast<uint8_t>(std::min<int>(m.fatigue + 1, s.sc().rules().fatigue_cap));
  m.bits = static_cast<uint16_t>(m.bits | morale_bit::kFought | morale_bit::kFoughtBefore);
  if (!(m == s.moraleOf(u))) setMoraleStatus(s, u, m);
}

// Step 5 for `winner`, whose enemy `loser` left `loser_cell` (along `loser_path` when it
// `routed`): under the ancient pursuit a routed loser is pursued or left alone, never advanced
// into (V-PUR-1; seed 001: « Si la phalange (trop rigide) ne poursuit jamais »), and a winner
// that is itself routed or pursuing stays where it is: a router moves only « en direction de
// son bord de table », a pursuer only after its router (V-PUR-3); otherwise the advance after
// combat.
void followUp(GameState& s, int winner, int loser, bool routed, CellId loser_cell,
              const RoutPath& loser_path, EventLog* log) {
  const bool ancient = s.sc().rules().pursuit == Pursuit::kAncient;
  if (ancient && s.outOfControl(winner)) return;
  if (!ancient || !routed) {
    advance(s, winner, loser_cell, log);
  } else if (pursues(s, winner, loser)) {
    pursue(s, winner, loser, loser_cell, loser_path, log);
  }
}

// Steps 3 to 5, once every morale test is resolved.
void finishCombat(GameState& s, EventLog* log) {
  const CombatRecord c = s.combat;
  const int a = c.attacker;
  const int d = c.defender;
  addFatigue(s, a);
  addFatigue(s, d);
  bool a_retreated = false;
  bool d_retreated = false;
  RoutPath d_path;
  RoutPath a_path;
  bool d_routed = false;  // routed by this combat's test, on the map or off it (V-PUR-1)
  bool a_routed = false;
  if (s.onMap(d)) {
    const bool moved =
        applyMoraleOutcome(s, d, outcomeOf(c, true), a, c.attacker_cell, &d_path, log);
    d_retreated = moved && s.onMap(d);
    d_routed = moved && s.routed(d);
  }
  if (s.onMap(a)) {
    // C-RES-1: the defender has retreated first; the attacker retreats away from the hex it
    // left, or from where it went (the attacker_retreat_from switch).
    const bool from_new_hex =
        d_retreated && s.sc().rules().attacker_retreat_from == RetreatFrom::kDefenderHex;
    const CellId responsible_cell = from_new_hex ? s.unit(d).cell : c.defender_cell;
    const bool moved =
        applyMoraleOutcome(s, a, outcomeOf(c, false), d, responsible_cell, &a_path, log);
    a_retreated = moved && s.onMap(a);
    a_routed = moved && s.routed(a);
  }
  const bool d_eliminated = !s.onMap(d);
  const bool a_eliminated = !s.onMap(a);
  const bool both_retreated = a_retreated && d_retreated;
  const bool victories = !both_retreated || s.sc().rules().both_retreat_both_victorious;
  // C-VIC-1, C-VIC-3, C-VIC-4: the combatant that made the other retreat or die.
  const bool a_wins = victories && !a_eliminated && (d_eliminated || d_retreated);
  const bool d_wins = victories && !d_eliminated && (a_eliminated || a_retreated);
  if (a_wins) makeVictorious(s, a, d_eliminated, log);
  if (d_wins) makeVictorious(s, d, a_eliminated, log);
  // C-ADV-1: the winner that held its ground moves into the vacated hex; V-PUR-1: or pursues
  // a routed loser, or stays where it is.
  setCombat(s, {});
  if (a_wins && !a_retreated) followUp(s, a, d, d_routed, c.defender_cell, d_path, log);
  if (d_wins && !d_retreated) followUp(s, d, a, a_routed, c.attacker_cell, a_path, log);
}

// Runs the resolution until it needs a die or is over.
void continueCombat(GameState& s, EventLog* log) {
  const CombatRecord c = s.combat;
  if (testMorale(s, c.defender, combat_flag::kDefenderTests, combat_flag::kDefenderTested,
                 combat_flag::kDefenderFailed, log)) {
    return;
  }
  if (testMorale(s, c.attacker, combat_flag::kAttackerTests, combat_flag::kAttackerTested,
                 combat_flag::kAttackerFailed, log)) {
    return;
  }
  finishCombat(s, log);
}

}  // namespace

int advanceTerrainRank(const Scenario& sc, CellId c, bool infantry_table) {
  switch (sc.terrain(c)) {
    case Terrain::kVillage:
    case Terrain::kWoods:
    case Terrain::kFort:
      return infantry_table ? 2 : 0;
    case Terrain::kHamlet:
      return 1;
    case Terrain::kMarsh:
    case Terrain::kDune:
      return -1;
    default:
      return 0;
  }
}

bool advances(const GameState& s, int unit, CellId from, CellId to) {
  const Scenario& sc = s.sc();
  const RuleSwitches& rules = sc.rules();
  const UnitType type = s.typeOf(unit);
  if (isArtillery(type)) return false;                                                    // C-ADV-2
  if (isGeneral(type) && rules.general_advances == GeneralAdvance::kNever) return false;  // C-ADV-7
  if (isMounted(type) && sc.terrain(from) == Terrain::kFort) return false;                // C-ADV-4
  if (isObjectiveFor(sc, from, s.sideOf(unit)) && !isObjectiveFor(sc, to, s.sideOf(unit))) {
    return false;  // C-ADV-5
  }
  const bool infantry_table =
      isInfantry(type) &&
      !(type == UnitType::kDromedary && rules.dromedary_advance_ranks == DromedaryRanks::kMounted);
  int rank_to = advanceTerrainRank(sc, to, infantry_table);
  int rank_from = advanceTerrainRank(sc, from, infantry_table);
  if (rules.advance_rank_counts_elevation) {
    rank_to += sc.level(to) > sc.level(from) ? 1 : 0;
    rank_from += sc.level(from) > sc.level(to) ? 1 : 0;
  }
  return rank_to >= rank_from;  // C-ADV-3
}

void resolveCombatDie(GameState& s, int value, EventLog* log) {
  CombatRecord c = s.combat;
  setPending(s, {});
  const int die = std::clamp(value + c.die_modifier, 0, 7);  // C-DIE-1
  const CrtCell cell = s.sc().crt()[static_cast<size_t>(die)][static_cast<size_t>(c.column + 7)];
  record(log, {.type = EventType::kCombatResult,
               .unit = c.attacker,
               .other = c.defender,
               .a = static_cast<int16_t>(value),
               .b = static_cast<int16_t>(die),
               .c = static_cast<int16_t>(cell.attacker_loss | cell.defender_loss << 4 |
                                         (cell.attacker_test ? 1 : 0) << 8 |
                                         (cell.defender_test ? 1 : 0) << 9)});
  loseVc(s, c.attacker, cell.attacker_loss, log);  // C-RES-1 step 1: at the same time
  loseVc(s, c.defender, cell.defender_loss, log);
  if (cell.attacker_test) c.flags |= combat_flag::kAttackerTests;
  if (cell.defender_test || defenderAlwaysTests(s.sc().rules())) {
    c.flags |= combat_flag::kDefenderTests;
  }
  setCombat(s, c);
  continueCombat(s, log);
}

void resolveCombatMoraleTest(GameState& s, int value, EventLog* log) {
  const int u = s.pending.unit;
  setPending(s, {});
  CombatRecord c = s.combat;
  const bool defender = u == c.defender;
  const MoraleTest test{u, TestOccasion::kCombat, defender ? c.attacker : c.defender, 0};
  const MoraleOutcome outcome = moraleOutcome(s, test, value);  // C-MOR-1, V-MOR-*
  const bool failed = outcome >= MoraleOutcome::kRetreat;
  if (s.sc().rules().morale_model == MoraleModel::kMp) {
    record(log, {.type = EventType::kMoraleTest,
                 .unit = static_cast<int8_t>(u),
                 .a = static_cast<int16_t>(value),
                 .b = static_cast<int16_t>(s.unit(u).mo),
                 .c = static_cast<int16_t>(failed ? 1 : 0)});
  } else {
    record(log, {.type = EventType::kMoraleResult,
                 .unit = static_cast<int8_t>(u),
                 .other = static_cast<int8_t>(test.responsible),
                 .a = static_cast<int16_t>(value),
                 .b = static_cast<int16_t>(moraleFactorShown(s, test)),
                 .c = static_cast<int16_t>(outcome)});
    const int packed = static_cast<int>(outcome);
    c.outcomes = static_cast<uint8_t>(defender ? (c.outcomes & 0xF0) | packed
                                               : (c.outcomes & 0x0F) | packed << 4);
  }
  c.flags |= defender ? combat_flag::kDefenderTested : combat_flag::kAttackerTested;
  if (failed) c.flags |= defender ? combat_flag::kDefenderFailed : combat_flag::kAttackerFailed;
  setCombat(s, c);
  continueCombat(s, log);
}

}  // namespace morne::env
