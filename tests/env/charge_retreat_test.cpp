// Cavalry charges (MV-CHG-*) and retreats (C-RET-*): worked-examples.md §7 (WX-R-*) and the
// charge procedure. Retreats are shared with combat; the combat-only parts of WX-R-10
// (victorious unit, +1 MO) belong to the combat tests.

#include <gtest/gtest.h>

#include "env/retreat.h"
#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

// --- retreat choice: U at (0,0), responsible enemy E at (1,0) (worked-examples.md §7) ---

struct RetreatCase {
  const char* id;
  int side;                   // side of the retreating unit U
  const char* type;           // type of U
  std::vector<Hex> occupied;  // friendly units of U around it
  std::vector<std::pair<Hex, const char*>> terrain;
  std::vector<Hex> streams;  // stream between U and these neighbours
  Hex expected;
  bool eliminated = false;
};

env::GameState retreatState(const RetreatCase& c, std::shared_ptr<const env::Scenario>& sc,
                            TestMap m = TestMap()) {
  m.unit({.id = "U", .side = c.side, .type = c.type, .at = {0, 0}, .mo = 4});
  m.unit({.id = "E", .side = 1 - c.side, .at = {1, 0}});
  int n = 0;
  for (Hex h : c.occupied) m.unit({.id = "F" + std::to_string(n++), .side = c.side, .at = h});
  for (const auto& [h, t] : c.terrain) m.terrain(h, t);
  for (Hex h : c.streams) m.water({0, 0}, h, "stream");
  sc = m.build();
  return stateIn(*sc, env::Phase::kMovement, 1 - c.side);
}

TEST(Retreat, PriorityOrder_WX_R_01_to_09_C_RET_4) {
  const RetreatCase cases[] = {
      {"WX-R-01", 0, "infantry", {}, {}, {}, {-1, 0}},
      {"WX-R-02", 1, "infantry", {{-1, 0}}, {}, {}, {0, -1}},
      {"WX-R-03", 0, "infantry", {{-1, 0}}, {}, {}, {-1, 1}},
      {"WX-R-04", 0, "infantry", {}, {{{1, -1}, "woods"}}, {}, {1, -1}},
      {"WX-R-05", 0, "cavalry", {}, {{{1, -1}, "woods"}}, {}, {-1, 0}},
      {"WX-R-06", 0, "infantry", {}, {{{0, 1}, "village"}, {{-1, 0}, "woods"}}, {}, {0, 1}},
      {"WX-R-07", 0, "infantry", {}, {}, {{-1, 0}}, {-1, 0}},
      {"WX-R-08", 1, "infantry", {{-1, 0}}, {}, {{0, -1}}, {-1, 1}},
      {"WX-R-09", 1, "infantry", {{0, -1}, {-1, 0}, {-1, 1}}, {}, {}, {1, -1}},
  };
  for (const RetreatCase& c : cases) {
    std::shared_ptr<const env::Scenario> sc;
    const env::GameState s = retreatState(c, sc);
    const env::CellId to = env::chooseRetreat(s, unitOf(*sc, "U"), cellOf(*sc, {1, 0}));
    EXPECT_EQ(to, cellOf(*sc, c.expected)) << c.id;
  }
}

TEST(Retreat, HexDistanceSwitchMakesBackHexesEqual_C_RET_4_Q_C_4) {
  TestMap m;
  m.rule("retreat_distance", "hex");
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = retreatState({"blue", 0, "infantry", {}, {}, {}, {}}, sc, m);
  // (-1,0), (0,-1) and (-1,1) are all at hex distance 2 from E; blue prefers the south (-1,1).
  EXPECT_EQ(env::chooseRetreat(s, unitOf(*sc, "U"), cellOf(*sc, {1, 0})), cellOf(*sc, {-1, 1}));
}

TEST(Retreat, NoFreeHexEliminates_WX_R_10_C_RET_3) {
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s = retreatState(
      {"WX-R-10", 0, "infantry", {{1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}, {}, {}, {}}, sc);
  const int u = unitOf(*sc, "U");
  EXPECT_EQ(env::retreatUnit(s, u, unitOf(*sc, "E"), cellOf(*sc, {1, 0}), nullptr), env::kNoCell);
  EXPECT_TRUE(s.has(u, env::unit_flag::kEliminated));
  EXPECT_FALSE(s.onMap(u));
}

TEST(Retreat, MoraleLossPerEnemyZoc_WX_R_11_12_C_RET_7) {
  for (const int mo : {4, 1}) {
    TestMap m;
    m.unit({.id = "X1", .side = 1, .at = {-2, 0}}).unit({.id = "X2", .side = 1, .at = {-2, 1}});
    std::shared_ptr<const env::Scenario> sc;
    env::GameState s = retreatState({"WX-R-11", 0, "infantry", {}, {}, {}, {}}, sc, m);
    const int u = unitOf(*sc, "U");
    env::setUnitMo(s, u, mo);
    EXPECT_EQ(env::retreatUnit(s, u, unitOf(*sc, "E"), cellOf(*sc, {1, 0}), nullptr),
              cellOf(*sc, {-1, 0}));
    EXPECT_EQ(s.unit(u).mo, mo == 4 ? 2 : 0) << "E, the responsible unit, does not count";
    EXPECT_EQ(s.unit(u).vc, 3) << "no spill-over to VC";
    EXPECT_TRUE(s.has(u, env::unit_flag::kMoved)) << "C-RET-6: a retreat counts as moving";
  }
}

TEST(Retreat, SpillSwitchTakesTheRestFromVc_C_RET_7) {
  TestMap m;
  m.unit({.id = "X1", .side = 1, .at = {-2, 0}}).unit({.id = "X2", .side = 1, .at = {-2, 1}});
  m.rule("retreat_zoc_loss_spills_to_vc", true);
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s = retreatState({"spill", 0, "infantry", {}, {}, {}, {}}, sc, m);
  const int u = unitOf(*sc, "U");
  env::setUnitMo(s, u, 1);
  env::retreatUnit(s, u, unitOf(*sc, "E"), cellOf(*sc, {1, 0}), nullptr);
  EXPECT_EQ(s.unit(u).mo, 0);
  EXPECT_EQ(s.unit(u).vc, 2);
}

TEST(Retreat, EnemyFortIsClosed_WX_R_13_C_RET_2_M_FORT_1) {
  TestMap m;
  m.terrain({-1, 0}, "fort");
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s = retreatState(
      {"WX-R-13", 0, "infantry", {{1, -1}, {0, -1}, {-1, 1}, {0, 1}}, {}, {}, {}}, sc, m);
  const int u = unitOf(*sc, "U");
  env::GameState friendly = s;
  EXPECT_EQ(env::chooseRetreat(friendly, u, cellOf(*sc, {1, 0})), cellOf(*sc, {-1, 0}));
  env::setFortControl(s, sc->fortIndex(cellOf(*sc, {-1, 0})), 1);
  EXPECT_EQ(env::retreatUnit(s, u, unitOf(*sc, "E"), cellOf(*sc, {1, 0}), nullptr), env::kNoCell);
  EXPECT_TRUE(s.has(u, env::unit_flag::kEliminated));
}

TEST(Retreat, TracksAcrossCliffsAreClosed_WX_R_14_C_RET_2_MV_CHG_4) {
  TestMap m;
  m.level({-1, 0}, 2).track({0, 0}, {-1, 0});
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s = retreatState(
      {"WX-R-14", 0, "infantry", {{1, -1}, {0, -1}, {-1, 1}, {0, 1}}, {}, {}, {}}, sc, m);
  const int u = unitOf(*sc, "U");
  EXPECT_EQ(env::retreatUnit(s, u, unitOf(*sc, "E"), cellOf(*sc, {1, 0}), nullptr), env::kNoCell);
}

TEST(Retreat, RiversBlockButFordsAndBridgesDoNot_C_RET_2) {
  for (const char* crossing : {"none", "ford", "bridge"}) {
    TestMap m;
    m.water({0, 0}, {-1, 0}, "river");
    if (std::string(crossing) != "none") m.crossing({0, 0}, {-1, 0}, crossing);
    std::shared_ptr<const env::Scenario> sc;
    env::GameState s = retreatState(
        {"river", 0, "infantry", {{1, -1}, {0, -1}, {-1, 1}, {0, 1}}, {}, {}, {}}, sc, m);
    const env::CellId to = env::chooseRetreat(s, unitOf(*sc, "U"), cellOf(*sc, {1, 0}));
    EXPECT_EQ(to, std::string(crossing) == "none" ? env::kNoCell : cellOf(*sc, {-1, 0}))
        << crossing;
  }
}

// --- charges (MV-CHG-*) ---

struct ChargeSetup {
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s;
  int cav = -1;
  int target = -1;
};

// Blue cavalry at (0,0) moves to (1,0), next to the orange target at (2,0).
ChargeSetup chargeSetup(const std::string& target_type, int target_vc, int target_mo,
                        TestMap m = TestMap()) {
  ChargeSetup c;
  m.unit({.id = "C", .type = "cavalry", .at = {0, 0}, .vc = 3, .mo = 4, .ma = 5});
  m.unit({.id = "keeper", .at = {-5, 5}});
  if (target_type == "general") m.corps(1, "X");
  m.unit({.id = "T",
          .side = 1,
          .type = target_type,
          .at = {2, 0},
          .vc = target_vc,
          .mo = target_mo,
          .corps = target_type == "general" ? "X" : ""});
  c.sc = m.build();
  c.s = stateIn(*c.sc, env::Phase::kMovement, 0);
  c.cav = unitOf(*c.sc, "C");
  c.target = unitOf(*c.sc, "T");
  return c;
}

env::Action chargeFrom(const env::GameState& s, Hex from) {
  return env::Action::charge(cellOf(s.sc(), from), 0);  // direction 0 = east
}

TEST(Charge, OnlyAfterMovingAndInContact_MV_CHG_5) {
  ChargeSetup c = chargeSetup("infantry", 2, 4);
  EXPECT_FALSE(env::isLegal(c.s, chargeFrom(c.s, {0, 0}))) << "not adjacent yet";
  TestMap m;
  m.unit({.id = "C", .type = "cavalry", .at = {1, 0}, .ma = 5});
  m.unit({.id = "T", .side = 1, .at = {2, 0}});
  const auto sc = m.build();
  const env::GameState fresh = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_FALSE(env::isLegal(fresh, chargeFrom(fresh, {1, 0}))) << "has not moved this phase";
  m.rule("charge_requires_move", false);
  const auto sc2 = m.build();
  const env::GameState fresh2 = stateIn(*sc2, env::Phase::kMovement, 0);
  EXPECT_TRUE(env::isLegal(fresh2, chargeFrom(fresh2, {1, 0})));

  env::applyAction(c.s, env::Action::move(cellOf(*c.sc, {0, 0}), 0));
  EXPECT_TRUE(c.s.has(c.cav, env::unit_flag::kHalted)) << "stopped by the target's ZOC";
  EXPECT_TRUE(env::isLegal(c.s, chargeFrom(c.s, {1, 0})));
}

TEST(Charge, NotByDemoralisedCavalryNorAgainstGenerals_MV_CHG_1_MV_CHG_5) {
  ChargeSetup c = chargeSetup("infantry", 2, 4);
  env::applyAction(c.s, env::Action::move(cellOf(*c.sc, {0, 0}), 0));
  env::setUnitMo(c.s, c.cav, 0);
  EXPECT_FALSE(env::isLegal(c.s, chargeFrom(c.s, {1, 0})));
  ChargeSetup g = chargeSetup("general", 2, 0);
  env::applyAction(g.s, env::Action::move(cellOf(*g.sc, {0, 0}), 0));
  EXPECT_FALSE(env::isLegal(g.s, chargeFrom(g.s, {1, 0})));
}

TEST(Charge, PassedTestCostsTheCavalryMorale_MV_CHG_5) {
  ChargeSetup c = chargeSetup("infantry", 2, 4);  // modifier +1 (VC 3 vs 2)
  env::applyAction(c.s, env::Action::move(cellOf(*c.sc, {0, 0}), 0));
  env::applyAction(c.s, chargeFrom(c.s, {1, 0}));
  ASSERT_EQ(c.s.pending.kind, env::ChanceKind::kChargeTest);
  env::ChanceList outcomes;
  env::chanceOutcomes(c.s, outcomes);
  EXPECT_EQ(outcomes.size(), 9u);  // RNG-3: d9
  env::applyChance(c.s, 3);        // 3 + 1 = 4, not above MO 4: passes
  EXPECT_EQ(c.s.unit(c.cav).mo, 3);
  EXPECT_EQ(c.s.unit(c.target).cell, cellOf(*c.sc, {2, 0}));
  EXPECT_TRUE(c.s.has(c.cav, env::unit_flag::kCharged));
  EXPECT_FALSE(env::isLegal(c.s, chargeFrom(c.s, {1, 0}))) << "one charge per turn";
}

TEST(Charge, FailedTestRetreatsTheTarget_MV_CHG_5_C_RET_5) {
  ChargeSetup c = chargeSetup("infantry", 2, 4);
  env::applyAction(c.s, env::Action::move(cellOf(*c.sc, {0, 0}), 0));
  env::applyAction(c.s, chargeFrom(c.s, {1, 0}));
  env::applyChance(c.s, 4);  // 4 + 1 = 5 > 4: fails
  EXPECT_EQ(c.s.unit(c.target).cell, cellOf(*c.sc, {3, 0})) << "straight away from the cavalry";
  EXPECT_EQ(c.s.unit(c.cav).cell, cellOf(*c.sc, {1, 0})) << "the cavalry does not advance";
  EXPECT_EQ(c.s.unit(c.cav).mo, 4);
}

TEST(Charge, ArtilleryThatFailsIsEliminated_MV_CHG_3_WX_RF_07) {
  ChargeSetup c = chargeSetup("foot_artillery", 2, 3);
  env::applyAction(c.s, env::Action::move(cellOf(*c.sc, {0, 0}), 0));
  env::applyAction(c.s, chargeFrom(c.s, {1, 0}));
  env::applyChance(c.s, 9);
  EXPECT_TRUE(c.s.has(c.target, env::unit_flag::kEliminated));
}

TEST(Charge, DemoralisedTargetAlwaysFails_MV_CHG_5_C_DEM_1) {
  ChargeSetup c = chargeSetup("infantry", 9, 4);  // modifier 3 - 9 = -6
  env::setUnitMo(c.s, c.target, 0);
  env::applyAction(c.s, env::Action::move(cellOf(*c.sc, {0, 0}), 0));
  env::applyAction(c.s, chargeFrom(c.s, {1, 0}));
  env::applyChance(c.s, 1);  // 1 - 6 < 0, but MO 0 fails any test
  EXPECT_EQ(c.s.unit(c.target).cell, cellOf(*c.sc, {3, 0}));
}

TEST(Charge, HalfModifierSwitch_MV_CHG_5_Q_MV_6) {
  TestMap m;
  m.rule("charge_vc_modifier", "half");
  ChargeSetup c = chargeSetup("infantry", 1, 4, m);  // difference 2, halved to 1
  env::applyAction(c.s, env::Action::move(cellOf(*c.sc, {0, 0}), 0));
  env::applyAction(c.s, chargeFrom(c.s, {1, 0}));
  env::EventLog log;
  env::applyChance(c.s, 4, &log);  // 4 + 1 = 5 > 4: fails (with the full modifier too)
  bool found = false;
  for (const env::Event& e : log) {
    if (e.type == env::EventType::kChargeTest) {
      EXPECT_EQ(e.b, 1);
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace morne::test
