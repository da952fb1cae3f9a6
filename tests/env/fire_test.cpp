// Artillery fire (§4): who may fire at whom, the loss formula and its modifiers, the split of
// losses, and reaction fire. worked-examples.md §4 (WX-F-*) and §10 (WX-RF-*).

#include "env/fire.h"

#include <gtest/gtest.h>

#include "env/rules.h"
#include "tests/env/find_event.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

struct LossCase {
  const char* id;
  int vt;
  int range;
  std::string target_type;
  Hex target_at;
  const char* target_terrain;
  bool reaction;
  int d4;
  int expected;
};

TEST(Fire, LossFormulaAndModifiers_WX_F_01_to_07_F_RES_1_F_MOD_1) {
  const LossCase cases[] = {
      {"WX-F-01", 4, 3, "infantry", {2, 0}, "clear", false, 3, 3},
      {"WX-F-02", 4, 3, "cavalry", {3, 0}, "clear", false, 2, 2},
      {"WX-F-03", 3, 3, "foot_artillery", {3, 0}, "village", false, 1, 0},
      {"WX-F-04", 4, 3, "cavalry", {1, 0}, "clear", true, 4, 4},
      {"WX-F-05", 4, 5, "infantry", {5, 0}, "fort", false, 4, 1},
      {"WX-F-06", 3, 3, "general", {1, 0}, "clear", false, 2, 3},
      {"WX-F-07", 5, 3, "infantry", {1, 0}, "woods", false, 4, 4},
  };
  for (const LossCase& c : cases) {
    TestMap m;
    m.unit({.id = "G", .type = "foot_artillery", .at = {0, 0}, .vt = c.vt, .range = c.range});
    if (c.target_type == "general") m.corps(1, "X");
    m.unit({.id = "T",
            .side = 1,
            .type = c.target_type,
            .at = c.target_at,
            .corps = c.target_type == "general" ? "X" : ""});
    m.terrain(c.target_at, c.target_terrain);
    const auto sc = m.build();
    const env::GameState s = stateIn(*sc, env::Phase::kBombardment, 0);
    EXPECT_EQ(env::fireLosses(s, 0, 1, c.reaction, c.d4), c.expected) << c.id;
  }
}

TEST(Fire, RangeLineOfSightAndFiringHexes_WX_F_08_09_10_F_GEN_3_4) {
  auto fireActions = [](const char* gun_terrain, Hex target, Hex woods) {
    TestMap m;
    m.unit({.id = "G", .type = "foot_artillery", .at = {0, 0}, .range = 3});
    m.unit({.id = "T", .side = 1, .at = target});
    m.terrain({0, 0}, gun_terrain);
    if (woods.q != 99) m.terrain(woods, "woods");
    const auto sc = m.build();
    env::ActionList legal;
    env::legalActions(stateIn(*sc, env::Phase::kBombardment, 0), legal);
    return legal.size() - 1;  // minus "end"
  };
  constexpr Hex kNoWoods{99, 99};
  EXPECT_EQ(fireActions("clear", {3, 0}, kNoWoods), 1u);
  EXPECT_EQ(fireActions("clear", {4, 0}, kNoWoods), 0u) << "WX-F-08: out of range";
  EXPECT_EQ(fireActions("clear", {3, 0}, {1, 0}), 0u) << "no line of sight";
  EXPECT_EQ(fireActions("woods", {3, 0}, kNoWoods), 0u) << "WX-F-09";
  EXPECT_EQ(fireActions("village", {3, 0}, kNoWoods), 0u) << "WX-F-09";
  EXPECT_EQ(fireActions("hamlet", {3, 0}, kNoWoods), 1u) << "WX-F-10";
  EXPECT_EQ(fireActions("fort", {3, 0}, kNoWoods), 1u) << "WX-F-10";
}

TEST(Fire, OneFirePerGunAndSwitches_F_GEN_1_F_GEN_7) {
  TestMap m;
  m.unit({.id = "G", .type = "foot_artillery", .at = {0, 0}});
  m.unit({.id = "T", .side = 1, .at = {1, 0}}).unit({.id = "U", .side = 1, .at = {2, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kBombardment, 0);
  ASSERT_TRUE(env::canBombard(s, 0)) << "adjacent to an enemy: may still fire by default";
  env::ActionList legal;
  env::legalActions(s, legal);
  ASSERT_EQ(legal.size(), 3u);
  env::applyAction(s, legal[1]);
  while (s.isChanceNode()) env::applyChance(s, 1);
  EXPECT_NE(s.phase, env::Phase::kBombardment) << "the only gun fired: the phase ends";
  m.rule("artillery_fires_when_adjacent", false);
  const auto sc2 = m.build();
  EXPECT_FALSE(env::canBombard(stateIn(*sc2, env::Phase::kBombardment, 0), 0));
}

// Fires gun G (VT vt) at the adjacent target T and applies the given coins; returns T's state.
env::UnitState lossesAfter(int vt, int d4, const std::string& type, int vc, int mo,
                           const std::vector<int>& coins,
                           const std::string& split = "coin_per_point") {
  TestMap m;
  m.unit({.id = "G", .type = "foot_artillery", .at = {0, 0}, .vt = vt});
  if (type == "general") m.corps(1, "X");
  m.unit({.id = "T",
          .side = 1,
          .type = type,
          .at = {1, 0},
          .vc = vc,
          .mo = std::max(mo, 1),
          .corps = type == "general" ? "X" : ""});
  m.unit({.id = "K", .type = "foot_artillery", .at = {-5, 5}})
      .unit({.id = "KT", .side = 1, .at = {-5, 3}});
  m.rule("fire_loss_split", split);
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kBombardment, 0);
  const int t = unitOf(*sc, "T");
  env::setUnitMo(s, t, mo);
  env::applyAction(s, env::Action::fire(cellOf(*sc, {0, 0}), 0));  // offset 0: the hex east
  env::applyChance(s, d4);
  for (int coin : coins) {
    EXPECT_EQ(s.pending.kind, env::ChanceKind::kFireCoin);
    env::applyChance(s, coin);
  }
  EXPECT_FALSE(s.isChanceNode()) << "no coin left";
  return s.unit(t);
}

TEST(Fire, LossSplitBetweenMoraleAndStrength_WX_F_11_to_15_F_LOSS_1_to_4) {
  constexpr int MO = env::kCoinMorale;
  constexpr int VC = env::kCoinStrength;
  env::UnitState u = lossesAfter(4, 2, "infantry", 4, 3, {MO, VC, MO});  // 3 points
  EXPECT_EQ(u.vc, 3) << "WX-F-11";
  EXPECT_EQ(u.mo, 1) << "WX-F-11";
  u = lossesAfter(4, 2, "infantry", 4, 1, {MO});  // MO reaches 0: the other 2 points spill
  EXPECT_EQ(u.vc, 2) << "WX-F-12";
  EXPECT_EQ(u.mo, 0) << "WX-F-12";
  u = lossesAfter(3, 1, "infantry", 3, 0, {});  // demoralised: 2 points, all to VC, no coin
  EXPECT_EQ(u.vc, 1) << "WX-F-13";
  u = lossesAfter(2, 1, "general", 2, 0, {MO, VC});  // 2 + 1 + 1 = 4: 2 points
  EXPECT_EQ(u.vc, 1) << "WX-F-14: the MO point is lost";
  u = lossesAfter(3, 1, "infantry", 1, 2, {VC});  // 2 points, the first kills
  EXPECT_EQ(u.cell, env::kNoCell) << "WX-F-15";
  u = lossesAfter(4, 2, "infantry", 4, 3, {MO}, "single_coin");  // one coin for all 3 points
  EXPECT_EQ(u.mo, 0);
  EXPECT_EQ(u.vc, 4);
}

// --- reaction fire: orange gun R at (3,0); blue units move next to it. ---

struct ReactionSetup {
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s;
};

ReactionSetup reaction(TestMap m) {
  m.unit({.id = "R", .side = 1, .type = "foot_artillery", .at = {3, 0}, .vt = 4});
  m.unit({.id = "keeper", .at = {-5, 5}});
  ReactionSetup r;
  r.sc = m.build();
  r.s = stateIn(*r.sc, env::Phase::kMovement, 0);
  return r;
}

void step(env::GameState& s, Hex from, Hex to, env::EventLog* log = nullptr) {
  env::applyAction(s, env::Action::move(cellOf(s.sc(), from), *env::directionBetween(from, to)),
                   log);
}

TEST(ReactionFire, CavalryEndingAStepNextToTheGun_WX_RF_01_F_REACT_2_F_REACT_8) {
  TestMap m;
  m.unit({.id = "C", .type = "cavalry", .at = {1, 0}, .ma = 5});
  ReactionSetup r = reaction(m);
  step(r.s, {1, 0}, {2, 0});
  ASSERT_EQ(r.s.charge_window, unitOf(*r.sc, "C")) << "charge or hold, before the gun fires";
  env::ActionList legal;
  env::legalActions(r.s, legal);
  EXPECT_EQ(legal[0], env::Action::hold());
  env::EventLog log;
  env::applyAction(r.s, env::Action::hold(), &log);
  ASSERT_EQ(r.s.pending.kind, env::ChanceKind::kFireDie);
  EXPECT_TRUE(r.s.pending.flags & env::pending_flag::kReaction);
  env::applyChance(r.s, 4, &log);
  EXPECT_EQ(findEvent(log, env::EventType::kFireResult)->b, 0) << "cavalry +1, reaction -1";
  EXPECT_EQ(findEvent(log, env::EventType::kFireResult)->c, 4) << "WX-F-04";
}

TEST(ReactionFire, NotWhileInAnotherEnemyZoc_WX_RF_02_F_REACT_3) {
  TestMap m;
  m.unit({.id = "I", .at = {1, 0}}).unit({.id = "Z", .at = {4, -1}});  // Z holds the gun's ZOC
  ReactionSetup r = reaction(m);
  env::EventLog log;
  step(r.s, {1, 0}, {2, 0}, &log);
  EXPECT_FALSE(r.s.isChanceNode());
  EXPECT_FALSE(findEvent(log, env::EventType::kFire));
}

TEST(ReactionFire, MovingUnitsOwnZocIsIgnored_WX_RF_03_04_F_REACT_3) {
  TestMap m;
  m.unit({.id = "I", .at = {2, 0}, .ma = 3}).unit({.id = "J", .at = {0, 1}, .ma = 3});
  ReactionSetup r = reaction(m);
  step(r.s, {2, 0}, {3, -1});  // adjacent at the start, still adjacent: the gun fires
  EXPECT_EQ(r.s.pending.target, unitOf(*r.sc, "I"));
  env::applyChance(r.s, 4);  // 4 - 1 + 4 = 7: 3 points, all to VC: I is destroyed
  while (r.s.isChanceNode()) env::applyChance(r.s, env::kCoinStrength);
  ASSERT_FALSE(r.s.onMap(unitOf(*r.sc, "I")));
  // The gun is free of every ZOC again, but its reaction fire is spent.
  env::EventLog log;
  step(r.s, {0, 1}, {1, 1});
  step(r.s, {1, 1}, {2, 1}, &log);
  EXPECT_FALSE(findEvent(log, env::EventType::kFire)) << "WX-RF-06: one reaction fire per turn";
}

TEST(ReactionFire, FreedGunFiresAtTheNextArrival_WX_RF_04_F_REACT_3) {
  TestMap m;
  m.unit({.id = "I", .at = {2, 0}, .ma = 3}).unit({.id = "J", .at = {0, 1}, .ma = 3});
  ReactionSetup r = reaction(m);
  step(r.s, {2, 0}, {1, 0});  // I leaves: no longer adjacent, no fire
  EXPECT_FALSE(r.s.isChanceNode());
  step(r.s, {0, 1}, {1, 1});
  step(r.s, {1, 1}, {2, 1});  // J ends next to the gun, now free of every ZOC
  EXPECT_EQ(r.s.pending.kind, env::ChanceKind::kFireDie);
  EXPECT_EQ(r.s.pending.target, unitOf(*r.sc, "J"));
}

TEST(ReactionFire, NotAcrossCliffsOrRiversNorFromVillages_WX_RF_05_08_F_REACT_2_4) {
  for (const char* obstacle : {"cliff", "river", "village"}) {
    TestMap m;
    m.unit({.id = "I", .at = {1, 0}});
    if (std::string(obstacle) == "cliff") m.level({3, 0}, 2);
    if (std::string(obstacle) == "river") m.water({2, 0}, {3, 0}, "river");
    if (std::string(obstacle) == "village") m.terrain({3, 0}, "village");
    ReactionSetup r = reaction(m);
    step(r.s, {1, 0}, {2, 0});
    EXPECT_FALSE(r.s.isChanceNode()) << obstacle;
  }
}

TEST(ReactionFire, ChargedGunThatFailsNeverFires_WX_RF_07_F_REACT_6_MV_CHG_3) {
  TestMap m;
  m.unit({.id = "C", .type = "cavalry", .at = {1, 0}, .vc = 4, .ma = 5});
  ReactionSetup r = reaction(m);
  step(r.s, {1, 0}, {2, 0});
  env::EventLog log;
  env::applyAction(r.s, env::Action::charge(cellOf(*r.sc, {2, 0}), 0), &log);
  ASSERT_EQ(r.s.pending.kind, env::ChanceKind::kChargeTest);
  env::applyChance(r.s, 9, &log);
  EXPECT_TRUE(r.s.has(unitOf(*r.sc, "R"), env::unit_flag::kEliminated));
  EXPECT_FALSE(findEvent(log, env::EventType::kFire));
  EXPECT_EQ(r.s.charge_window, -1);
}

TEST(ReactionFire, GunThatPassesTheChargeFiresAfterwards_MV_CHG_5_F_REACT_6) {
  TestMap m;
  m.unit({.id = "C", .type = "cavalry", .at = {1, 0}, .vc = 2, .ma = 5});
  ReactionSetup r = reaction(m);
  step(r.s, {1, 0}, {2, 0});
  env::applyAction(r.s, env::Action::charge(cellOf(*r.sc, {2, 0}), 0));
  env::applyChance(r.s, 1);  // 1 + (2 - 3) = 0, not above MO 3: the gun holds
  EXPECT_EQ(r.s.pending.kind, env::ChanceKind::kFireDie);
  EXPECT_EQ(r.s.pending.unit, unitOf(*r.sc, "R"));
}

TEST(ReactionFire, SeveralGunsFireInUnitOrder_F_REACT_7) {
  for (const char* order : {"ascending_id", "descending_id"}) {
    TestMap m;
    m.unit({.id = "I", .at = {1, 0}, .vc = 9});
    m.unit({.id = "S", .side = 1, .type = "foot_artillery", .at = {2, 1}, .vt = 1});
    m.rule("reaction_fire_order", order);
    ReactionSetup r = reaction(m);  // adds gun R at (3,0) after S
    step(r.s, {1, 0}, {2, 0});      // next to both S and R
    const bool ascending = std::string(order) == "ascending_id";
    EXPECT_EQ(r.s.pending.unit, unitOf(*r.sc, ascending ? "S" : "R")) << order;
    while (r.s.pending.unit == unitOf(*r.sc, ascending ? "S" : "R")) env::applyChance(r.s, 1);
    EXPECT_EQ(r.s.pending.unit, unitOf(*r.sc, ascending ? "R" : "S"))
        << "the second gun fires next";
  }
}

}  // namespace
}  // namespace morne::test
