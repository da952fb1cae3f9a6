// Movement phase (§5) and command (§9): every movement case of worked-examples.md §9 (WX-MV-*),
// plus the switches of the proposed movement rules. Each test names the rule IDs it checks.

#include "env/movement.h"

#include <gtest/gtest.h>

#include "env/rules.h"
#include "env/turn.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

constexpr Hex kKeeperHex{-5, 5};  // a far friendly unit that keeps the movement phase open

// Direction from a to its neighbour b.
int dirTo(Hex a, Hex b) { return *env::directionBetween(a, b); }

// Cost of a step of unit `id` to the neighbouring test hex `to`, or -1 if illegal.
int costOf(const env::GameState& s, const std::string& id, Hex to) {
  const env::Scenario& sc = s.sc();
  const int u = unitOf(sc, id);
  const Hex from = sc.hexOf(s.unit(u).cell) - sc.hexOf(cellOf(sc, Hex{0, 0}));
  return env::stepCost(s, u, dirTo(from, to), nullptr);
}

// Applies a step of the unit standing at test hex `from` to `to`.
void step(env::GameState& s, Hex from, Hex to, env::EventLog* log = nullptr) {
  env::applyAction(s, env::Action::move(cellOf(s.sc(), from), dirTo(from, to)), log);
}

TestMap mapWith(const UnitSpec& mover) {
  TestMap m;
  m.unit(mover);
  m.unit({.id = "keeper", .side = mover.side, .at = kKeeperHex});
  return m;
}

// --- command (CMD-2, CMD-3) ---

TEST(Command, OutOfRadiusHalvesMovement_WX_MV_01_CMD_3) {
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G", .type = "general", .at = {0, 0}, .corps = "I", .radius = 2});
  m.unit({.id = "I", .at = {4, 0}, .ma = 3, .corps = "I"});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_FALSE(s.has(unitOf(*sc, "I"), env::unit_flag::kInCommand));
  EXPECT_EQ(s.unit(unitOf(*sc, "I")).mp, 1);
}

TEST(Command, RadiusIsHexDistance_WX_MV_02_CMD_2) {
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G", .type = "general", .at = {0, 0}, .corps = "I", .radius = 2});
  m.unit({.id = "near", .at = {2, -1}, .corps = "I"});
  m.unit({.id = "far", .at = {3, 0}, .corps = "I"});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_TRUE(s.has(unitOf(*sc, "near"), env::unit_flag::kInCommand));
  EXPECT_FALSE(s.has(unitOf(*sc, "far"), env::unit_flag::kInCommand));
  EXPECT_TRUE(s.has(unitOf(*sc, "G"), env::unit_flag::kInCommand));
}

TEST(Command, OtherCorpsGeneralDoesNotCommand_WX_MV_03_CMD_1) {
  TestMap m;
  m.corps(0, "A").corps(0, "B");
  m.unit({.id = "GA", .type = "general", .at = {0, 0}, .corps = "A", .radius = 3});
  m.unit({.id = "GB", .type = "general", .at = {-5, 5}, .corps = "B", .radius = 1});
  m.unit({.id = "b", .at = {1, 0}, .ma = 4, .corps = "B"});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_FALSE(s.has(unitOf(*sc, "b"), env::unit_flag::kInCommand));
  EXPECT_EQ(s.unit(unitOf(*sc, "b")).mp, 2);
}

TEST(Command, IndependentAndLeaderlessUnits_CMD_4) {
  TestMap m;
  m.corps(0, "A");
  m.unit({.id = "indep", .at = {0, 0}, .ma = 4});
  m.unit({.id = "lost", .at = {2, 0}, .ma = 4, .corps = "A"});  // corps A has no general
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(s.unit(unitOf(*sc, "indep")).mp, 4);
  EXPECT_EQ(s.unit(unitOf(*sc, "lost")).mp, 4);  // a corps without general: independent units

  TestMap d;  // a corps whose general has been eliminated: out of command (default)
  d.corps(0, "A");
  d.unit({.id = "G", .type = "general", .at = {1, 0}, .corps = "A"});
  d.unit({.id = "u", .at = {0, 0}, .ma = 4, .corps = "A"});
  const auto dsc = d.build();
  env::GameState ds = stateIn(*dsc, env::Phase::kMovement, 0);
  env::setUnitCell(ds, unitOf(*dsc, "G"), env::kNoCell);
  env::setUnitFlags(ds, unitOf(*dsc, "G"), env::unit_flag::kEliminated);
  env::checkCommand(ds, nullptr);
  env::prepareMovementPhase(ds);
  EXPECT_EQ(ds.unit(unitOf(*dsc, "u")).mp, 2);
  d.rule("leaderless_corps_in_command", true);
  const auto dsc2 = d.build();
  env::GameState ds2 = stateIn(*dsc2, env::Phase::kMovement, 0);
  env::setUnitCell(ds2, unitOf(*dsc2, "G"), env::kNoCell);
  env::checkCommand(ds2, nullptr);
  env::prepareMovementPhase(ds2);
  EXPECT_EQ(ds2.unit(unitOf(*dsc2, "u")).mp, 4);
}

// --- costs (MV-COST-*) ---

TEST(MovementCost, StreamIntoMarshThenMarshTest_WX_MV_04_MV_COST_2) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 3});
  m.terrain({1, 0}, "m").water({0, 0}, {1, 0}, "stream");
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(costOf(s, "I", {1, 0}), 2);
  step(s, {0, 0}, {1, 0});
  ASSERT_TRUE(s.isChanceNode());
  EXPECT_EQ(s.pending.kind, env::ChanceKind::kMarshTest);
  env::ChanceList outcomes;
  env::chanceOutcomes(s, outcomes);
  ASSERT_EQ(outcomes.size(), 4u);  // RNG-2: d4
  for (const auto& o : outcomes) EXPECT_EQ(o.num * 4, o.den);
}

TEST(MovementCost, ArtilleryMarshOdds_WX_MV_05_MV_MARSH_1) {
  for (const int d4 : {3, 4}) {
    TestMap m = mapWith({.id = "A", .type = "foot_artillery", .at = {0, 0}, .ma = 3});
    m.terrain({1, 0}, "m");
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
    step(s, {0, 0}, {1, 0});
    env::applyChance(s, d4);
    const int a = unitOf(*sc, "A");
    EXPECT_EQ(s.has(a, env::unit_flag::kStuck), d4 == 3) << "d4=" << d4;
    EXPECT_EQ(costOf(s, "A", {2, 0}) >= 0, d4 == 4) << "a stuck unit's movement ends";
  }
}

TEST(MovementCost, MarshThresholdsByType_MV_MARSH_1) {
  const std::pair<const char*, int> cases[] = {
      {"infantry", 1},       {"light_infantry", 1},  {"cavalry", 2},  {"general", 2},
      {"foot_artillery", 3}, {"horse_artillery", 3}, {"dromedary", 2}};
  for (const auto& [type, k] : cases) {
    TestMap m;
    if (std::string(type) == "general") m.corps(0, "I");
    m.unit({.id = "u",
            .type = type,
            .at = {0, 0},
            .corps = std::string(type) == "general" ? "I" : ""});
    const auto sc = m.build();
    const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
    EXPECT_EQ(env::marshStuckThreshold(s, 0), k) << type;
  }
  TestMap m;
  m.unit({.id = "d", .type = "dromedary", .at = {0, 0}}).rule("marsh_stuck_dromedary", 1);
  const auto sc = m.build();
  EXPECT_EQ(env::marshStuckThreshold(stateIn(*sc, env::Phase::kMovement, 0), 0), 1);
}

struct TerrainCostCase {
  const char* type;
  const char* terrain;
  int cost;
};

TEST(MovementCost, TerrainTable_WX_MV_06_07_08_09_MV_COST_1) {
  const TerrainCostCase cases[] = {
      {"cavalry", "woods", 3},          {"cavalry", "orchard", 3},     {"cavalry", "rough", 2},
      {"foot_artillery", "orchard", 2}, {"foot_artillery", "fort", 3}, {"dromedary", "dune", 1},
      {"dromedary", "palm_grove", 1},   {"dromedary", "woods", 3},     {"general", "woods", 3},
      {"infantry", "woods", 2},         {"infantry", "village", 2},    {"infantry", "hamlet", 1},
      {"cavalry", "village", 3},        {"infantry", "dune", 2},       {"cavalry", "coppice", 2},
      {"horse_artillery", "woods", 3},  {"light_infantry", "fort", 2}, {"cavalry", "fort", 2},
  };
  for (const TerrainCostCase& c : cases) {
    TestMap m;
    const bool general = std::string(c.type) == "general";
    if (general) m.corps(0, "I");
    m.unit({.id = "u", .type = c.type, .at = {0, 0}, .ma = 6, .corps = general ? "I" : ""});
    m.unit({.id = "keeper", .at = kKeeperHex});
    m.terrain({1, 0}, c.terrain);
    const auto sc = m.build();
    EXPECT_EQ(costOf(stateIn(*sc, env::Phase::kMovement, 0), "u", {1, 0}), c.cost)
        << c.type << " into " << c.terrain;
  }
}

TEST(MovementCost, GeneralColumnSwitch_WX_MV_09_D_3) {
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G", .type = "general", .at = {0, 0}, .ma = 6, .corps = "I"});
  m.terrain({1, 0}, "woods").rule("general_moves_as", "infantry");
  const auto sc = m.build();
  EXPECT_EQ(costOf(stateIn(*sc, env::Phase::kMovement, 0), "G", {1, 0}), 2);
}

TEST(MovementCost, TracksAndCliffs_WX_MV_10_11_MV_COST_4_5) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 4});
  m.level({1, 0}, 2).track({0, 0}, {1, 0});  // double contour with a track
  m.level({0, 1}, 3).track({0, 0}, {0, 1});  // triple contour with a track
  m.level({-1, 0}, 2);                       // double contour, no track
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(costOf(s, "I", {1, 0}), 2);
  EXPECT_EQ(costOf(s, "I", {0, 1}), 3);
  EXPECT_EQ(costOf(s, "I", {-1, 0}), -1);
}

TEST(MovementCost, RiversBridgesFords_WX_MV_12_MV_COST_2) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 4});
  m.water({0, 0}, {1, 0}, "river");
  m.water({0, 0}, {0, 1}, "river").crossing({0, 0}, {0, 1}, "bridge");
  m.water({0, 0}, {-1, 0}, "major_river").crossing({0, 0}, {-1, 0}, "ford");
  m.water({0, 0}, {1, -1}, "stream");
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(costOf(s, "I", {1, 0}), -1);
  EXPECT_EQ(costOf(s, "I", {0, 1}), 1);
  EXPECT_EQ(costOf(s, "I", {-1, 0}), 2);
  EXPECT_EQ(costOf(s, "I", {1, -1}), 2);
}

TEST(MovementCost, SlopesUpAndDown_MV_COST_3) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 4});
  m.level({1, 0}, 1).level({-1, 0}, -1);
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(costOf(s, "I", {1, 0}), 2);   // uphill +1
  EXPECT_EQ(costOf(s, "I", {-1, 0}), 1);  // downhill +0
  m.rule("slope_up_cost", 2).rule("slope_down_cost", 1);
  const auto sc2 = m.build();
  const env::GameState s2 = stateIn(*sc2, env::Phase::kMovement, 0);
  EXPECT_EQ(costOf(s2, "I", {1, 0}), 3);
  EXPECT_EQ(costOf(s2, "I", {-1, 0}), 2);
}

// --- roads (MV-ROAD-*) ---

// Moves the unit at `start` east along row r = 0 while it can; returns the hexes entered.
int stepsEast(env::GameState& s, Hex start) {
  int n = 0;
  Hex at = start;
  while (costOf(s, s.sc().unit(s.unitAt(cellOf(s.sc(), at))).id, at + Hex{1, 0}) >= 0) {
    step(s, at, at + Hex{1, 0});
    at = at + Hex{1, 0};
    ++n;
  }
  return n;
}

TEST(Roads, FollowingARoadFromARoadHex_WX_MV_13_MV_ROAD_2) {
  TestMap m = mapWith({.id = "I", .at = {-4, 0}, .ma = 3});
  std::vector<Hex> road;
  for (int q = -4; q <= 5; ++q) road.push_back({q, 0});
  m.road(road);
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(stepsEast(s, {-4, 0}), 6);  // costs 0,1,0,1,0,1
}

TEST(Roads, EnteringARoadFromOffRoad_WX_MV_14_MV_ROAD_2) {
  TestMap m = mapWith({.id = "I", .at = {-5, 0}, .ma = 3});
  std::vector<Hex> road;
  for (int q = -4; q <= 5; ++q) road.push_back({q, 0});
  m.road(road);
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(stepsEast(s, {-5, 0}), 4);  // costs 1 (enter), 1, 0, 1
}

TEST(Roads, CuttingACrossroadsCorner_WX_MV_15_MV_ROAD_3) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 6});
  m.road({{-1, 0}, {0, 0}, {1, 0}, {2, 0}});
  m.road({{1, 0}, {1, -1}, {1, -2}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  env::EventLog log;
  step(s, {0, 0}, {1, -1}, &log);  // (0,0) and (1,-1) are road hexes with no road between them
  step(s, {1, -1}, {1, -2}, &log);
  std::vector<int> costs;
  for (const env::Event& e : log) {
    if (e.type == env::EventType::kStep) costs.push_back(e.a);
  }
  EXPECT_EQ(costs, (std::vector<int>{1, 1}));  // the corner step is not free, nor the next
}

TEST(Roads, FreeStepIgnoresStreamAndSlopeSwitch_MV_ROAD_4) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 3});
  m.road({{0, 0}, {1, 0}}).water({0, 0}, {1, 0}, "stream").level({1, 0}, 1);
  m.crossing({0, 0}, {1, 0}, "ford");
  const auto sc = m.build();
  EXPECT_EQ(costOf(stateIn(*sc, env::Phase::kMovement, 0), "I", {1, 0}), 0);
  m.rule("free_road_step_ignores_hexside", false);
  const auto sc2 = m.build();
  EXPECT_EQ(costOf(stateIn(*sc2, env::Phase::kMovement, 0), "I", {1, 0}), 2);
}

TEST(Roads, NoStepWithoutMovementPointsEvenOnARoad_MV_GEN_3) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 1});
  m.road({{-1, 0}, {0, 0}, {1, 0}, {2, 0}, {3, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(stepsEast(s, {0, 0}), 2);  // free, then paid 1; at 0 MP a further free step is refused
}

// --- zones of control (MV-ZOC-*) ---

TEST(Zoc, EnteringEnemyZocEndsMovement_WX_MV_16_MV_ZOC_2) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 5});
  m.unit({.id = "E", .side = 1, .at = {3, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  step(s, {0, 0}, {1, 0});
  step(s, {1, 0}, {2, 0});  // adjacent to E
  const int i = unitOf(*sc, "I");
  EXPECT_TRUE(s.has(i, env::unit_flag::kHalted));
  EXPECT_EQ(s.unit(i).mp, 3);
  EXPECT_EQ(costOf(s, "I", {2, -1}), -1);
  EXPECT_EQ(costOf(s, "I", {1, 0}), -1);
}

TEST(Zoc, LeavingAndReenteringTheSameZoc_WX_MV_17_MV_ZOC_3) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 5});
  m.unit({.id = "E", .side = 1, .at = {1, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_GE(costOf(s, "I", {-1, 0}), 0);  // leaving is free of ZOC restrictions
  step(s, {0, 0}, {1, -1});               // another hex of E's ZOC: allowed, then stops
  EXPECT_TRUE(s.has(unitOf(*sc, "I"), env::unit_flag::kHalted));
}

TEST(Zoc, DemoralisedMayNotEnterEnemyZoc_WX_MV_18_MV_ZOC_4) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 5});
  m.unit({.id = "E", .side = 1, .at = {3, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  env::setUnitMo(s, unitOf(*sc, "I"), 0);
  EXPECT_GE(costOf(s, "I", {1, 0}), 0);
  step(s, {0, 0}, {1, 0});
  EXPECT_EQ(costOf(s, "I", {2, 0}), -1);
}

TEST(Zoc, DemoralisedEnemyExertsNoZoc_WX_MV_19_MV_ZOC_1) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 5});
  m.unit({.id = "E", .side = 1, .at = {2, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  env::setUnitMo(s, unitOf(*sc, "E"), 0);
  step(s, {0, 0}, {1, 0});
  EXPECT_FALSE(s.has(unitOf(*sc, "I"), env::unit_flag::kHalted));
}

TEST(Zoc, NoZocAcrossRiverOrCliffUnlessSwitched_MV_ZOC_1_Q_MV_5) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 5});
  m.unit({.id = "E", .side = 1, .at = {2, 0}}).water({1, 0}, {2, 0}, "river");
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  step(s, {0, 0}, {1, 0});
  EXPECT_FALSE(s.has(unitOf(*sc, "I"), env::unit_flag::kHalted));
  m.rule("zoc_across_rivers_and_cliffs", true);
  const auto sc2 = m.build();
  env::GameState s2 = stateIn(*sc2, env::Phase::kMovement, 0);
  step(s2, {0, 0}, {1, 0});
  EXPECT_TRUE(s2.has(unitOf(*sc2, "I"), env::unit_flag::kHalted));
}

TEST(Zoc, GeneralsExertZocSwitch_MV_ZOC_1) {
  for (const bool exert : {true, false}) {
    TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 5});
    m.corps(1, "X").unit({.id = "G", .side = 1, .type = "general", .at = {2, 0}, .corps = "X"});
    m.rule("generals_exert_zoc", exert);
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
    step(s, {0, 0}, {1, 0});
    EXPECT_EQ(s.has(unitOf(*sc, "I"), env::unit_flag::kHalted), exert);
  }
}

TEST(Stacking, NoEnteringOrPassingThroughUnits_WX_MV_20_U_STACK_1) {
  TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 5});
  m.unit({.id = "F", .at = {1, 0}});
  const auto sc = m.build();
  EXPECT_EQ(costOf(stateIn(*sc, env::Phase::kMovement, 0), "I", {1, 0}), -1);
}

// --- artillery after fire (F-GEN-6) ---

int allowanceAfterFire(const std::string& type, int ma, bool in_command) {
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G",
          .type = "general",
          .at = {in_command ? -1 : -5, in_command ? 0 : 5},
          .corps = "I",
          .radius = 2});
  m.unit({.id = "A", .type = type, .at = {0, 0}, .ma = ma, .corps = "I"});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  env::addUnitFlags(s, unitOf(*sc, "A"), env::unit_flag::kFired);
  env::prepareMovementPhase(s);
  return s.unit(unitOf(*sc, "A")).mp;
}

TEST(ArtilleryAfterFire, FootArtilleryStays_WX_MV_21_F_GEN_6) {
  EXPECT_EQ(allowanceAfterFire("foot_artillery", 2, true), 0);
}

TEST(ArtilleryAfterFire, HorseArtilleryInCommandHalf_WX_MV_22_F_GEN_6) {
  EXPECT_EQ(allowanceAfterFire("horse_artillery", 5, true), 2);
}

TEST(ArtilleryAfterFire, HorseArtilleryOutOfCommandStays_WX_MV_23_F_GEN_6) {
  EXPECT_EQ(allowanceAfterFire("horse_artillery", 5, false), 0);
}

// --- switches of proposed movement rules ---

TEST(MovementSwitches, MinimumMoveOneHex_MV_GEN_2) {
  TestMap m = mapWith({.id = "C", .type = "cavalry", .at = {0, 0}, .ma = 2});
  m.terrain({1, 0}, "woods");
  const auto sc = m.build();
  EXPECT_EQ(costOf(stateIn(*sc, env::Phase::kMovement, 0), "C", {1, 0}), -1);
  m.rule("minimum_move_one_hex", true);
  const auto sc2 = m.build();
  env::GameState s = stateIn(*sc2, env::Phase::kMovement, 0);
  EXPECT_EQ(costOf(s, "C", {1, 0}), 3);
  step(s, {0, 0}, {1, 0});
  EXPECT_EQ(s.unit(unitOf(*sc2, "C")).mp, 0);
}

TEST(MovementSwitches, StuckHoldsNextTurn_MV_MARSH_1_Q_MV_3) {
  for (const bool hold : {false, true}) {
    TestMap m = mapWith({.id = "I", .at = {0, 0}, .ma = 3});
    m.terrain({1, 0}, "m").rule("marsh_stuck_holds_next_turn", hold).turns(3);
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
    step(s, {0, 0}, {1, 0});
    env::applyChance(s, 1);                   // stuck
    env::applyAction(s, env::Action::end());  // blue's movement ends ...
    while (!(s.side == 0 && s.turn == 2 && s.phase == env::Phase::kMovement)) {
      env::ActionList legal;
      env::legalActions(s, legal);
      env::applyAction(s, env::Action::end());  // ... orange passes
    }
    EXPECT_EQ(s.unit(unitOf(*sc, "I")).mp, hold ? 0 : 3) << "hold=" << hold;
  }
}

}  // namespace
}  // namespace morne::test
