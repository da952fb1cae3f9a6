// Combat resolution (§6.5-6.10): the die and its clamp, the results table, morale tests,
// retreats, victorious units, advance after combat. worked-examples.md §5 (WX-D-07..09), §6
// (WX-M-*), §8 (WX-A-*), §13 (WX-CRT-*), §14 (the full walk-through) and WX-C-06/07, WX-R-10.

#include <gtest/gtest.h>

#include "env/combat.h"
#include "env/crt.h"
#include "env/error.h"
#include "env/io/scenario_json.h"
#include "env/rules.h"
#include "tests/env/find_event.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

// Declares the attack of `attacker` on `defender` (both ids) in the combat phase.
void attack(env::GameState& s, const std::string& attacker, const std::string& defender,
            env::EventLog* log = nullptr) {
  const env::Scenario& sc = s.sc();
  const env::CellId from = s.unit(unitOf(sc, attacker)).cell;
  const env::CellId to = s.unit(unitOf(sc, defender)).cell;
  const int dir = *env::directionBetween(sc.hexOf(from), sc.hexOf(to));
  env::applyAction(s, env::Action::attack(from, dir), log);
}

TEST(CombatResultsTable, AppendixBFollowsItsGenerator_C_CRT_1_C_CRT_2) {
  // S = die + column index (-7..7), mapped by the generator row of Appendix B.
  auto generator = [](int sum) {
    if (sum <= -2) return "2*/0";
    if (sum <= 0) return "1*/0";
    if (sum == 1) return "1/0";
    if (sum == 2) return "1/1";
    if (sum == 3) return "1/1*";
    if (sum <= 5) return "0/1*";
    if (sum == 6) return "0/2";
    if (sum <= 8) return "0/2*";
    return "0/3*";
  };
  const env::CombatResultsTable& t = env::appendixBTable();
  for (int die = 0; die < env::kCrtRows; ++die) {
    for (int col = 0; col < env::kCrtColumns; ++col) {
      EXPECT_EQ(env::crtCellText(t[die][col]), generator(die + col - 7)) << die << " " << col;
    }
  }
}

TEST(CombatResultsTable, WorkedExamples_WX_CRT_01_to_06) {
  struct Case {
    const char* id;
    int column, die;
    const char* expected;
  };
  for (const Case& c : {Case{"WX-CRT-01", 2, 4, "0/2"}, Case{"WX-CRT-02", 0, 1, "1/0"},
                        Case{"WX-CRT-03", 0, 3, "1/1*"}, Case{"WX-CRT-04", -1, 0, "1*/0"},
                        Case{"WX-CRT-05", -7, 0, "2*/0"}, Case{"WX-CRT-06", 7, 7, "0/3*"}}) {
    EXPECT_EQ(env::crtCellText(env::appendixBTable()[c.die][c.column + 7]), c.expected) << c.id;
  }
}

TEST(CombatResultsTable, ScenarioMayReplaceIt_C_CRT_2) {
  TestMap m;
  m.unit({.id = "A", .at = {0, 0}, .vc = 4}).unit({.id = "D", .side = 1, .at = {1, 0}, .vc = 4});
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < 8; ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (int c = 0; c < 15; ++c) row.push_back("0/1");
    rows.push_back(row);
  }
  m.rule("combat_results_table", rows);
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  attack(s, "A", "D");
  env::applyChance(s, 1);
  EXPECT_EQ(s.unit(unitOf(*sc, "D")).vc, 3);
  EXPECT_EQ(s.unit(unitOf(*sc, "A")).vc, 4);
  rows[3][7] = "9/x";
  m.rule("combat_results_table", rows);
  EXPECT_THROW(m.build(), ValidationError);
}

TEST(CombatDie, ClampToZeroAndSeven_WX_D_07_08_09_C_DIE_1) {
  struct Case {
    const char* id;
    int mo_a, mo_d, level_a, level_d;
    const char* defender_terrain;
    int d6, modified;
  };
  const Case cases[] = {
      {"WX-D-07", 1, 3, 0, 1, "hamlet", 1, 0},  // -1 morale -1 uphill -1 hamlet
      {"WX-D-08", 9, 3, 1, 0, "marsh", 6, 7},   // +3 morale +1 downhill +1 marsh
      {"WX-D-09", 5, 2, 1, 0, "hamlet", 4, 5},  // -1 hamlet +1 downhill +1 morale
  };
  for (const Case& c : cases) {
    TestMap m;
    m.unit({.id = "A", .at = {0, 0}, .mo = c.mo_a})
        .unit({.id = "D", .side = 1, .at = {1, 0}, .mo = c.mo_d});
    m.level({0, 0}, c.level_a).level({1, 0}, c.level_d).terrain({1, 0}, c.defender_terrain);
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    attack(s, "A", "D");
    env::EventLog log;
    env::applyChance(s, c.d6, &log);
    const env::Event* e = findEvent(log, env::EventType::kCombatResult);
    ASSERT_TRUE(e) << c.id;
    EXPECT_EQ(e->b, c.modified) << c.id;
  }
}

// A 1:1 combat whose d6 of 3 gives "1/1*": the defender tests its morale.
struct MoraleSetup {
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s;
};
MoraleSetup defenderTests(int defender_mo, const std::string& defender_type = "infantry") {
  MoraleSetup m;
  TestMap t;
  if (defender_type == "general") t.corps(1, "X");
  t.unit({.id = "A", .at = {0, 0}, .vc = 4, .mo = defender_mo});
  t.unit({.id = "D",
          .side = 1,
          .type = defender_type,
          .at = {1, 0},
          .vc = 4,
          .mo = defender_mo,
          .corps = defender_type == "general" ? "X" : ""});
  m.sc = t.build();
  m.s = stateIn(*m.sc, env::Phase::kCombat, 0);
  attack(m.s, "A", "D");
  env::applyChance(m.s, 3);
  return m;
}

TEST(MoraleTest, PassFailAndCertainResults_WX_M_01_to_06_C_MOR_1) {
  for (const auto& [d9, fails] : {std::pair{4, false}, std::pair{5, true}}) {
    MoraleSetup m = defenderTests(4);
    ASSERT_EQ(m.s.pending.kind, env::ChanceKind::kMoraleTest);
    env::applyChance(m.s, d9);
    const int d = unitOf(*m.sc, "D");
    EXPECT_EQ(m.s.unit(d).cell != cellOf(*m.sc, {1, 0}), fails) << "d9=" << d9;
  }
  for (const int mo : {1, 4, 8}) {  // WX-M-06: P(fail) = (9 - MO) / 9
    MoraleSetup m = defenderTests(mo);
    env::ChanceList outcomes;
    env::chanceOutcomes(m.s, outcomes);
    int failing = 0;
    for (const env::ChanceOutcome& o : outcomes) failing += o.value > mo;
    EXPECT_EQ(failing, 9 - mo);
  }
  MoraleSetup nine = defenderTests(9);  // WX-M-04: certain pass, no die
  EXPECT_FALSE(nine.s.isChanceNode());
  EXPECT_EQ(nine.s.unit(unitOf(*nine.sc, "D")).cell, cellOf(*nine.sc, {1, 0}));
}

TEST(MoraleTest, DemoralisedFailsAndGeneralsNeverTest_WX_M_03_05) {
  TestMap t;
  t.unit({.id = "A", .at = {0, 0}, .vc = 4, .mo = 4})
      .unit({.id = "D", .side = 1, .at = {1, 0}, .vc = 4, .mo = 4});
  const auto sc = t.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  env::setUnitMo(s, unitOf(*sc, "D"), 0);
  attack(s, "A", "D");
  env::applyChance(s, 5);  // 1:1, d6 5 + 2 (morale 4 against 0) = 7: 0/2*, a test for D
  EXPECT_FALSE(s.isChanceNode()) << "MO 0 fails with no die";
  EXPECT_NE(s.unit(unitOf(*sc, "D")).cell, cellOf(*sc, {1, 0}));

  MoraleSetup g = defenderTests(4, "general");
  EXPECT_FALSE(g.s.isChanceNode()) << "generals never test (CMD-6)";
  EXPECT_EQ(g.s.unit(unitOf(*g.sc, "D")).cell, cellOf(*g.sc, {1, 0}));
}

TEST(CombatResult, EliminationVictoryMoraleGainAndAdvance_WX_C_06_07_C_VIC_1_3_C_ADV_1) {
  TestMap m;
  m.unit({.id = "U1", .at = {0, 0}, .vc = 6, .mo = 5})
      .unit({.id = "U2", .side = 1, .at = {1, 0}, .vc = 2, .mo = 4});
  m.unit({.id = "U6", .side = 1, .at = {2, 0}, .vc = 3, .mo = 4})
      .unit({.id = "U5", .at = {2, 1}, .vc = 2, .mo = 4});
  m.unit({.id = "U7", .side = 1, .at = {2, -1}, .vc = 1, .mo = 4});  // U1 will touch it too
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  env::setUnitMo(s, unitOf(*sc, "U1"), 4);
  env::EventLog log;
  attack(s, "U1", "U2", &log);
  EXPECT_EQ(findEvent(log, env::EventType::kAttack)->c, 2) << "6 against 2 is 3:1";
  env::applyChance(s, 4, &log);  // MO 4 vs 4: no modifier; 3:1 at 4 gives 0/2 (WX-CRT-01)
  const int u1 = unitOf(*sc, "U1");
  EXPECT_TRUE(s.has(unitOf(*sc, "U2"), env::unit_flag::kEliminated));
  EXPECT_TRUE(s.has(u1, env::unit_flag::kVictorious));
  EXPECT_EQ(s.unit(u1).mo, 5) << "+1 MO for the elimination, up to the initial 5";
  EXPECT_EQ(s.unit(u1).cell, cellOf(*sc, {1, 0})) << "advanced into U2's hex";
  // WX-C-07: U1 now touches U6 and U7; victorious, it still supports U5's attack on U6.
  const env::CombatOdds odds = env::combatOdds(s, unitOf(*sc, "U5"), unitOf(*sc, "U6"));
  bool u1_supports = false;
  for (const env::CombatContributor& c : odds.units) u1_supports |= c.unit == u1;
  EXPECT_TRUE(u1_supports);
}

TEST(CombatResult, NoRetreatEliminatesAndRewardsTheVictor_WX_R_10_C_RET_3_C_VIC_3) {
  TestMap m;
  m.unit({.id = "E", .at = {1, 0}, .vc = 8, .mo = 3});
  m.unit({.id = "U", .side = 1, .at = {0, 0}, .vc = 4, .mo = 4});
  int n = 0;
  for (Hex h : {Hex{1, -1}, Hex{0, -1}, Hex{-1, 0}, Hex{-1, 1}, Hex{0, 1}}) {
    m.unit({.id = "F" + std::to_string(n++), .side = 1, .at = h, .vc = 1, .mo = 1});
  }
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  env::setUnitMo(s, unitOf(*sc, "E"), 2);
  attack(s, "E", "U");     // 8 against 4 + 1 + 1 (two surrounding units touch E): 1:1, DRM -1
  env::applyChance(s, 4);  // modified die 3: 1/1*
  ASSERT_EQ(s.pending.kind, env::ChanceKind::kMoraleTest);
  env::EventLog log;
  env::applyChance(s, 9, &log);  // U fails and has nowhere to go
  EXPECT_TRUE(s.has(unitOf(*sc, "U"), env::unit_flag::kEliminated));
  EXPECT_TRUE(findEvent(log, env::EventType::kNoRetreat, unitOf(*sc, "U")));
  EXPECT_EQ(s.unit(unitOf(*sc, "E")).mo, 3) << "+1 MO for the elimination";
  // The combat phase then ends by itself, which clears the grey bar: read it from the events.
  EXPECT_TRUE(findEvent(log, env::EventType::kVictorious, unitOf(*sc, "E")));
}

TEST(CombatResult, FullWalkThrough_Section14) {
  TestMap m;
  m.unit({.id = "X", .at = {0, 0}, .vc = 4, .mo = 5})
      .unit({.id = "Y", .side = 1, .at = {1, 0}, .vc = 3, .mo = 3});
  m.unit({.id = "Z", .at = {1, 1}, .vc = 2, .mo = 4}).water({0, 0}, {1, 0}, "stream");
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  const env::CombatOdds odds = env::combatOdds(s, unitOf(*sc, "X"), unitOf(*sc, "Y"));
  EXPECT_EQ(odds.attack, 4);  // X 2 across the stream + Z 2
  EXPECT_EQ(odds.defence, 3);
  EXPECT_EQ(env::oddsName(odds.column), "1:1");
  EXPECT_EQ(odds.dieModifier(), 1);
  env::EventLog log;
  attack(s, "X", "Y");
  env::applyChance(s, 3, &log);  // modified die 4: 0/1*
  EXPECT_EQ(s.unit(unitOf(*sc, "Y")).vc, 2);
  ASSERT_EQ(s.pending.kind, env::ChanceKind::kMoraleTest);
  env::applyChance(s, 6, &log);  // 6 > 3: fails
  const int y = unitOf(*sc, "Y");
  const int x = unitOf(*sc, "X");
  EXPECT_EQ(s.unit(y).cell, cellOf(*sc, {2, 0}));
  EXPECT_EQ(s.unit(y).mo, 2) << "(2,0) is in Z's zone of control";
  EXPECT_TRUE(findEvent(log, env::EventType::kVictorious, x));
  EXPECT_EQ(s.unit(x).mo, 5);
  EXPECT_EQ(s.unit(x).cell, cellOf(*sc, {1, 0}));
  EXPECT_TRUE(s.has(x, env::unit_flag::kMoved));
  EXPECT_EQ(s.unit(unitOf(*sc, "Z")).vc, 2) << "C-GEN-6: supports suffer no result";
}

TEST(CombatResult, BothRetreatBothVictoriousNeitherAdvances_C_VIC_4) {
  TestMap m;
  m.unit({.id = "A", .at = {0, 0}, .vc = 6, .mo = 4})
      .unit({.id = "D", .side = 1, .at = {1, 0}, .vc = 6, .mo = 4});
  // No cell of Appendix B tests both sides: use a table whose every cell does.
  nlohmann::json doc = m.toJson();
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < 8; ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (int c = 0; c < 15; ++c) row.push_back("0*/0*");
    rows.push_back(row);
  }
  doc["rules"]["combat_results_table"] = rows;
  const auto both = env::parseScenario(doc.dump(), "both");
  env::GameState s = stateIn(*both, env::Phase::kCombat, 0);
  attack(s, "A", "D");
  env::applyChance(s, 3);
  env::applyChance(s, 9);  // defender fails
  env::EventLog log;
  env::applyChance(s, 9, &log);  // attacker fails
  EXPECT_TRUE(findEvent(log, env::EventType::kVictorious, 0));
  EXPECT_TRUE(findEvent(log, env::EventType::kVictorious, 1));
  EXPECT_EQ(s.unit(0).cell, cellOf(*both, {-1, 0}));
  EXPECT_EQ(s.unit(1).cell, cellOf(*both, {2, 0}));
}

TEST(CombatResult, AttackerRetreatAfterTheDefendersBySwitch_C_RES_1_C_RET_4) {
  // Both fail their tests. D retreats first, to (2,-1) (its straight retreat is blocked by a
  // friend at (2,0); orange prefers the north). A is hemmed in by its friends: it can go back
  // into (1,0), the hex D left, or to (1,-1). Measured from (1,0), (1,-1) is the farther; from
  // (2,-1) both are adjacent and equally far, and blue's tie-break (the south) picks (1,0).
  for (const char* reading : {"defender_old_hex", "defender_hex"}) {
    TestMap m;
    m.unit({.id = "A", .at = {0, 0}, .vc = 6, .mo = 4})
        .unit({.id = "D", .side = 1, .at = {1, 0}, .vc = 6, .mo = 4})
        .unit({.id = "F", .side = 1, .at = {2, 0}});
    for (const Hex h : {Hex{-1, 0}, Hex{-1, 1}, Hex{0, -1}, Hex{0, 1}}) {
      m.unit({.id = "B" + TestMap::label(h), .at = h});
    }
    m.rule("attacker_retreat_from", reading);
    nlohmann::json doc = m.toJson();
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < 8; ++r) rows.push_back(std::vector<std::string>(15, "0*/0*"));
    doc["rules"]["combat_results_table"] = rows;
    const auto sc = env::parseScenario(doc.dump(), "both fail");
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    attack(s, "A", "D");
    env::applyChance(s, 3);
    env::applyChance(s, 9);  // the defender fails
    env::applyChance(s, 9);  // the attacker fails
    EXPECT_EQ(s.unit(unitOf(*sc, "D")).cell, cellOf(*sc, {2, -1})) << reading;
    const Hex a_to = std::string(reading) == "defender_old_hex" ? Hex{1, -1} : Hex{1, 0};
    EXPECT_EQ(s.unit(unitOf(*sc, "A")).cell, cellOf(*sc, a_to)) << reading;
  }
}

struct AdvanceCase {
  const char* id;
  std::string type;
  const char* from_terrain;
  const char* to_terrain;
  bool from_objective;
  bool to_objective;
  bool advances;
};

TEST(Advance, TerrainRanksFortsAndObjectives_WX_A_01_to_09_12_C_ADV_2_to_5) {
  const AdvanceCase cases[] = {
      {"WX-A-01", "infantry", "clear", "woods", false, false, true},
      {"WX-A-02", "infantry", "village", "clear", false, false, false},
      {"WX-A-03", "infantry", "woods", "village", false, false, true},
      {"WX-A-04", "cavalry", "woods", "clear", false, false, true},
      {"WX-A-05", "infantry", "clear", "marsh", false, false, false},
      {"WX-A-06", "foot_artillery", "clear", "clear", false, false, false},
      {"WX-A-06 horse", "horse_artillery", "village", "woods", false, false, false},
      {"WX-A-07", "cavalry", "fort", "village", false, false, false},
      {"WX-A-08", "infantry", "clear", "clear", true, false, false},
      {"WX-A-09", "infantry", "clear", "woods", true, true, true},
      {"WX-A-12", "cavalry", "clear", "fort", false, false, true},
      {"hamlet", "infantry", "hamlet", "clear", false, false, false},
      {"dromedary", "dromedary", "clear", "village", false, false, true},
      {"C-ADV-7 general", "general", "clear", "woods", false, false, true},
      {"C-ADV-7 general", "general", "fort", "clear", false, false, false},
  };
  for (const AdvanceCase& c : cases) {
    TestMap m;
    if (c.type == "general") m.corps(0, "I");
    m.unit({.id = "W", .type = c.type, .at = {0, 0}, .corps = c.type == "general" ? "I" : ""});
    m.terrain({0, 0}, c.from_terrain).terrain({1, 0}, c.to_terrain);
    if (c.from_objective) m.objective({0, 0}, false, 1, 1);
    if (c.to_objective) m.objective({1, 0}, false, 1, 1);
    const auto sc = m.build();
    const env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    EXPECT_EQ(env::advances(s, 0, cellOf(*sc, {0, 0}), cellOf(*sc, {1, 0})), c.advances) << c.id;
  }
}

TEST(Advance, GeneralsNeverAdvanceSwitch_C_ADV_7) {
  TestMap m;
  m.corps(0, "I").unit({.id = "W", .type = "general", .at = {0, 0}, .corps = "I"});
  m.rule("general_advances", "never");
  const auto sc = m.build();
  EXPECT_FALSE(env::advances(stateIn(*sc, env::Phase::kCombat, 0), 0, cellOf(*sc, {0, 0}),
                             cellOf(*sc, {1, 0})));
}

TEST(Advance, NoReactionFireAndNoSecondAttack_WX_A_10_11_C_ADV_6) {
  TestMap m;
  m.unit({.id = "A", .at = {0, 0}, .vc = 8, .mo = 4})
      .unit({.id = "D", .side = 1, .at = {1, 0}, .vc = 1, .mo = 4});
  m.unit({.id = "G", .side = 1, .type = "foot_artillery", .at = {2, 0}, .vc = 2, .mo = 4});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  env::EventLog log;
  attack(s, "A", "D", &log);
  env::applyChance(s, 6, &log);  // 8:1 (capped) 0/3*: D eliminated, A advances next to G
  EXPECT_EQ(s.unit(0).cell, cellOf(*sc, {1, 0}));
  EXPECT_FALSE(findEvent(log, env::EventType::kFire)) << "an advance draws no reaction fire";
  EXPECT_FALSE(env::isLegal(s, env::Action::attack(cellOf(*sc, {1, 0}), 0))) << "A has attacked";
}

}  // namespace
}  // namespace morne::test
