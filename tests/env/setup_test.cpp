// Set-up (§3): placement in set-up zones as a decision phase, and the turn sequence around it.

#include <gtest/gtest.h>

#include "env/io/notation.h"
#include "env/io/scenario_json.h"
#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

TestMap placementMap() {
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G", .type = "general", .at = {0, 3}, .corps = "I", .radius = 1});
  m.unit({.id = "P1", .ma = 4, .corps = "I", .placed_at_setup = true});
  m.unit({.id = "P2", .ma = 4, .corps = "I", .placed_at_setup = true});
  m.setupZone(0, {{0, 0}, {1, 0}, {2, 0}});
  m.unit({.id = "O", .side = 1, .at = {0, -4}, .placed_at_setup = false});
  return m;
}

TEST(Setup, PlacingIsTheFirstDecisionOfTurnOne_S_2_S_3) {
  const auto sc = placementMap().build();
  env::GameState s = env::newGame(*sc);
  ASSERT_EQ(s.phase, env::Phase::kSetup);
  EXPECT_EQ(env::nextUnitToPlace(s), unitOf(*sc, "P1"));
  env::ActionList legal;
  env::legalActions(s, legal);
  ASSERT_EQ(legal.size(), 3u) << "one placement per empty zone hex, no \"end\"";
  EXPECT_FALSE(env::isLegal(s, env::Action::end()));
  EXPECT_FALSE(env::isLegal(s, env::Action::place(cellOf(*sc, {3, 0}))));
  const auto outside = env::explainIllegal(s, env::Action::place(cellOf(*sc, {3, 0})));
  ASSERT_TRUE(outside);
  EXPECT_EQ(outside->reason, env::RefusalReason::kOutsideSetupZone);
  EXPECT_EQ(outside->rule, "S-3");
  EXPECT_NE(outside->message.find("outside"), std::string::npos);
  env::applyAction(s, env::Action::place(cellOf(*sc, {1, 0})));
  EXPECT_EQ(env::nextUnitToPlace(s), unitOf(*sc, "P2"));
  env::legalActions(s, legal);
  EXPECT_EQ(legal.size(), 2u) << "placed hexes are taken";
  env::applyAction(s, env::Action::place(cellOf(*sc, {0, 0})));
  // Set-up over: command check (S-6), then movement.
  EXPECT_EQ(s.phase, env::Phase::kMovement);
  EXPECT_EQ(s.unit(unitOf(*sc, "P2")).cell, cellOf(*sc, {0, 0}));
  EXPECT_TRUE(s.has(unitOf(*sc, "G"), env::unit_flag::kInCommand));
  EXPECT_FALSE(s.has(unitOf(*sc, "P1"), env::unit_flag::kInCommand)) << "3 hexes from G, radius 1";
  EXPECT_EQ(s.unit(unitOf(*sc, "P1")).mp, 2) << "out of command: MA 4 halved (CMD-3)";
}

TEST(Setup, FirstTurnReservedForSetupSwitch_S_5) {
  TestMap m = placementMap();
  m.rule("first_turn_setup_only", true).turns(2);
  const auto sc = m.build();
  env::GameState s = env::newGame(*sc);
  env::applyAction(s, env::Action::place(cellOf(*sc, {1, 0})));
  env::applyAction(s, env::Action::place(cellOf(*sc, {0, 0})));
  // No movement in game turn 1: straight on to game turn 2, blue's movement phase.
  EXPECT_EQ(s.turn, 2);
  EXPECT_EQ(s.side, 0);
  EXPECT_EQ(s.phase, env::Phase::kMovement);
}

TEST(Setup, OptionalSetupProposesButDoesNotForce_S_1) {
  TestMap m = placementMap();
  nlohmann::json doc = m.toJson();
  doc["sides"][0]["units"][1]["hex"] = TestMap::label(2, 0);  // proposed position
  const auto sc = env::parseScenario(doc.dump(), "optional");
  EXPECT_EQ(sc->unit(unitOf(*sc, "P1")).proposed, cellOf(*sc, {2, 0}));
  env::GameState s = env::newGame(*sc);
  EXPECT_EQ(s.phase, env::Phase::kSetup);
  EXPECT_TRUE(env::isLegal(s, env::Action::place(cellOf(*sc, {0, 0}))));
}

}  // namespace
}  // namespace morne::test
