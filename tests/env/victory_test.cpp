// Victory (§8): victory levels (worked-examples.md §12, WX-V-*), occupied and passing hexes,
// generals and zones.

#include <gtest/gtest.h>

#include "env/error.h"
#include "env/io/scenario_handicap.h"
#include "env/io/scenario_json.h"
#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

// A state whose only objectives give `vp_blue` to blue (occupied by a blue unit) and
// `vp_orange` to orange.
env::GameResult resultOf(int vp_blue, int vp_orange) {
  TestMap m;
  m.unit({.id = "B", .at = {0, 0}}).unit({.id = "O", .side = 1, .at = {3, 0}});
  if (vp_blue) m.objective({0, 0}, false, vp_blue, 0);
  if (vp_orange) m.objective({3, 0}, false, 0, vp_orange);
  const auto sc = m.build();
  return env::gameResult(stateIn(*sc, env::Phase::kMovement, 0));
}

TEST(Victory, Levels_WX_V_01_to_05_V_LEVEL_1) {
  struct Case {
    int blue, orange, winner, level;
  };
  const Case cases[] = {
      {3, 3, env::kNoSide, 0}, {4, 3, 0, 1}, {1, 3, 1, 2}, {5, 2, 0, 3}, {0, 6, 1, 4}};
  for (const Case& c : cases) {
    const env::GameResult r = resultOf(c.blue, c.orange);
    EXPECT_EQ(r.vp[0], c.blue);
    EXPECT_EQ(r.vp[1], c.orange);
    EXPECT_EQ(r.winner, c.winner);
    EXPECT_EQ(r.level, c.level);
  }
  EXPECT_STREQ(env::victoryLevelName(4), "total victory");
}

TEST(Victory, GeneralsDoNotHoldObjectives_WX_V_06_V_HEX_3) {
  TestMap m;
  m.corps(0, "I").unit({.id = "G", .type = "general", .at = {0, 0}, .corps = "I"});
  m.objective({0, 0}, false, 2, 2);
  const auto sc = m.build();
  EXPECT_EQ(env::gameResult(stateIn(*sc, env::Phase::kMovement, 0)).vp[0], 0);
}

TEST(Victory, PassingHexesBelongToTheLastUnitIn_V_HEX_2) {
  TestMap m;
  m.unit({.id = "B", .at = {0, 0}, .ma = 3}).unit({.id = "keeper", .at = {-5, 5}});
  m.corps(0, "I").unit({.id = "G", .type = "general", .at = {0, 2}, .ma = 3, .corps = "I"});
  m.objective({1, 0}, true, 2, 2).objective({1, 1}, true, 1, 1);
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  env::applyAction(s, env::Action::move(cellOf(*sc, {0, 0}), 0));  // B enters (1,0)
  env::applyAction(s, env::Action::move(cellOf(*sc, {1, 0}), 0));  // and leaves it
  env::applyAction(s, env::Action::move(cellOf(*sc, {0, 2}), 1));  // G enters (1,1)
  const env::GameResult r = env::gameResult(s);
  EXPECT_EQ(r.vp[0], 2) << "(1,0) stays blue after B left; G does not take (1,1)";
}

TEST(Victory, ZonesCountHexesByCriterion_V_ZONE_1) {
  TestMap m;
  m.unit({.id = "B1", .at = {0, 0}}).unit({.id = "B2", .at = {1, 0}});
  m.unit({.id = "O1", .side = 1, .at = {2, 0}});
  nlohmann::json doc = m.toJson();
  const nlohmann::json hexes = {TestMap::label(0, 0), TestMap::label(1, 0), TestMap::label(2, 0)};
  doc["zones"] = {{{"name", "majority"},
                   {"hexes", hexes},
                   {"kind", "occupied"},
                   {"criterion", "majority"},
                   {"vp", {{"blue", 3}, {"orange", 3}}}},
                  {{"name", "all"},
                   {"hexes", hexes},
                   {"kind", "occupied"},
                   {"criterion", "all"},
                   {"vp", {{"blue", 10}, {"orange", 10}}}},
                  {{"name", "any"},
                   {"hexes", hexes},
                   {"kind", "occupied"},
                   {"criterion", "any"},
                   {"vp", {{"blue", 1}, {"orange", 1}}}}};
  const auto sc = env::parseScenario(doc.dump(), "zones");
  const env::GameResult r = env::gameResult(stateIn(*sc, env::Phase::kMovement, 0));
  EXPECT_EQ(r.vp[0], 3 + 1);  // majority (2 of 3) and any (2 > 1)
  EXPECT_EQ(r.vp[1], 0);
}

// The result of resultOf's position with a handicap of `half_vp` half points to `side`.
env::GameResult handicappedResult(int vp_blue, int vp_orange, const char* side, double vp) {
  TestMap m;
  m.unit({.id = "B", .at = {0, 0}}).unit({.id = "O", .side = 1, .at = {3, 0}});
  if (vp_blue) m.objective({0, 0}, false, vp_blue, 0);
  if (vp_orange) m.objective({3, 0}, false, 0, vp_orange);
  nlohmann::json doc = m.toJson();
  doc["balance"] = {{"vp_to", side}, {"vp", vp}};
  const auto sc = env::parseScenario(doc.dump(), "handicap");
  return env::gameResult(stateIn(*sc, env::Phase::kMovement, 0));
}

TEST(Victory, AHandicapCountsInTheScoreAndItsHalfPointBreaksTies_V_LEVEL_1) {
  struct Case {
    int blue, orange;
    const char* to;
    double vp;
    int winner, level;
  };
  const Case cases[] = {
      {3, 3, "blue", 0.5, 0, 1},           // Δ = 0.5: a minor victory
      {1, 3, "blue", 1.5, 1, 1},           // Δ = -0.5
      {2, 3, "blue", 1, env::kNoSide, 0},  // Δ = 0: a draw
      {4, 1, "blue", 2, 0, 4},             // Δ = 5: total
      {4, 1, "orange", 2.5, 0, 1},         // Δ = 0.5
      {1, 4, "orange", 0, 1, 3},           // no handicap
      {0, 0, "orange", 3.5, 1, 3},         // Δ = -3.5: major
  };
  for (const Case& c : cases) {
    const env::GameResult r = handicappedResult(c.blue, c.orange, c.to, c.vp);
    SCOPED_TRACE(std::to_string(c.blue) + "-" + std::to_string(c.orange) + " +" +
                 std::to_string(c.vp) + " " + c.to);
    EXPECT_EQ(r.vp[0], c.blue) << "the map's VP stay apart from the handicap";
    EXPECT_EQ(r.vp[1], c.orange);
    const int to = std::string(c.to) == "blue" ? 0 : 1;
    EXPECT_EQ(r.handicap_half[static_cast<size_t>(to)], static_cast<int>(2 * c.vp));
    EXPECT_EQ(r.handicap_half[static_cast<size_t>(1 - to)], 0);
    EXPECT_EQ(r.winner, c.winner);
    EXPECT_EQ(r.level, c.level);
  }
}

// A game's own handicap (self-play draws one per game): it replaces the scenario's in the
// result, and the hash tells it apart, 0 back at the scenario's own.
TEST(Victory, AGamesOwnHandicapReplacesTheScenariosAndIsHashed_V_LEVEL_1) {
  TestMap m;
  m.unit({.id = "B", .at = {0, 0}}).unit({.id = "O", .side = 1, .at = {3, 0}});
  m.objective({0, 0}, false, 2, 0);
  nlohmann::json doc = m.toJson();
  doc["balance"] = {{"vp_to", "orange"}, {"vp", 1.5}};
  const auto sc = env::parseScenario(doc.dump(), "handicap");
  env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  EXPECT_EQ(s.handicap_half, -3);
  EXPECT_EQ(env::gameResult(s).winner, 0);  // 2 - 1.5
  const uint64_t own_hash = s.hash;
  EXPECT_EQ(env::computeHash(s), own_hash);
  env::setHandicap(s, -5);  // +2.5 VP to orange
  env::GameResult r = env::gameResult(s);
  EXPECT_EQ(r.handicap_half[0], 0);
  EXPECT_EQ(r.handicap_half[1], 5);
  EXPECT_EQ(r.winner, 1);
  EXPECT_EQ(r.level, 1);
  EXPECT_NE(s.hash, own_hash);
  EXPECT_EQ(env::computeHash(s), s.hash);
  env::setHandicap(s, 2);  // +1 VP to blue
  r = env::gameResult(s);
  EXPECT_EQ(r.handicap_half[0], 2);
  EXPECT_EQ(r.handicap_half[1], 0);
  EXPECT_EQ(r.marginHalf(), 6);
  EXPECT_EQ(env::computeHash(s), s.hash);
  env::setHandicap(s, -3);
  EXPECT_EQ(s.hash, own_hash);
}

TEST(Victory, HalfPointsReadAsText) {
  EXPECT_EQ(env::halfVpText(0), "0");
  EXPECT_EQ(env::halfVpText(3), "1.5");
  EXPECT_EQ(env::halfVpText(4), "2");
  EXPECT_EQ(env::halfVpText(-1), "-0.5");
  EXPECT_EQ(env::halfVpText(-5), "-2.5");
  EXPECT_EQ(env::victoryLevel(1), 1);
  EXPECT_EQ(env::victoryLevel(-3), 1);
  EXPECT_EQ(env::victoryLevel(5), 2);
  EXPECT_EQ(env::victoryLevel(-20), 4);
}

// The scenario card's line: each measurement's share of blue wins among the decisive games,
// with Wilson's 95% interval (hand computations: 3 of 4, centre 0.6275, half-width 0.3269;
// 1 of 2, centre 0.5, half-width 0.4055).
TEST(Victory, AMeasuredHandicapReadsAsOneLine) {
  nlohmann::json doc = TestMap().unit({.id = "B", .at = {0, 0}}).toJson();
  EXPECT_EQ(env::balanceText(*env::parseScenario(doc.dump(), "plain")), "");
  doc["balance"] = {{"vp_to", "orange"}, {"vp", 1.5}};
  EXPECT_EQ(env::balanceText(*env::parseScenario(doc.dump(), "unmeasured")),
            "handicap +1.5 VP to orange (not measured)");
  doc["balance"]["measured"] = {
      {{"agents", "mcts:sims=64"}, {"blue", 3}, {"orange", 1}, {"draws", 0}, {"seed", 7}},
      {{"agents", "rule vs random"}, {"blue", 1}, {"orange", 1}, {"draws", 2}}};
  const auto sc = env::parseScenario(doc.dump(), "measured");
  ASSERT_EQ(sc->balanceMeasurements().size(), 2u);
  EXPECT_EQ(sc->balanceMeasurements()[0].seed, 7u);
  EXPECT_EQ(sc->balanceMeasurements()[1].seed, 1u);  // the default
  EXPECT_EQ(env::balanceText(*sc),
            "handicap +1.5 VP to orange: blue wins 75.0% [30.1, 95.4] of 4 decisive games of "
            "mcts:sims=64 against itself, 50.0% [9.5, 90.5] of 2 decisive games (2 drawn) of rule "
            "against random");
  // Another handicap drops the measurements, which were of this one.
  EXPECT_TRUE(env::withHandicap(*sc, 2)->balanceMeasurements().empty());
}

TEST(Victory, AHandicapMustBeAWholeOrHalfPointToOneSide) {
  struct Bad {
    nlohmann::json balance;
    const char* path;
    const char* says;
  };
  const Bad bad[] = {
      {{{"vp_to", "blue"}, {"vp", 1.25}}, "/balance/vp", "whole or half"},
      {{{"vp_to", "blue"}, {"vp", -1}}, "/balance/vp", "from 0 to 20"},
      {{{"vp_to", "blue"}, {"vp", "2"}}, "/balance/vp", "expected a number"},
      {{{"vp_to", "green"}, {"vp", 1}}, "/balance/vp_to", "unknown side"},
      {{{"vp_to", nullptr}, {"vp", 1}}, "/balance/vp_to", "name the side"},
      {{{"vp", 1}}, "/balance", "vp_to"},
      {{{"vp_to", "blue"}, {"vp", 1}, {"komi", 1}}, "/balance/komi", "unknown key"},
      {{{"vp_to", "blue"}, {"vp", 1}, {"measured", 3}}, "/balance/measured", "expected an array"},
      {{{"vp_to", "blue"},
        {"vp", 1},
        {"measured", {{{"agents", "rule"}, {"blue", 0}, {"orange", 0}, {"draws", 4}}}}},
       "/balance/measured/0",
       "at least one decisive game"},
      {{{"vp_to", "blue"},
        {"vp", 1},
        {"measured", {{{"agents", ""}, {"blue", 1}, {"orange", 0}, {"draws", 0}}}}},
       "/balance/measured/0/agents",
       "name the agents"},
      {{{"vp_to", "blue"},
        {"vp", 1},
        {"measured", {{{"agents", "rule"}, {"blue", -1}, {"orange", 3}, {"draws", 0}}}}},
       "/balance/measured/0/blue",
       "out of range"},
      {{{"vp_to", "blue"}, {"vp", 1}, {"measured", {{{"agents", "rule"}, {"blue", 2}}}}},
       "/balance/measured/0",
       "missing required key \"orange\""},
      {{{"vp_to", "blue"},
        {"vp", 1},
        {"measured",
         {{{"agents", "rule"}, {"blue", 1}, {"orange", 3}, {"draws", 0}, {"seed", -2}}}}},
       "/balance/measured/0/seed",
       "non-negative integer"},
  };
  for (const Bad& b : bad) {
    nlohmann::json doc = TestMap().unit({.id = "B", .at = {0, 0}}).toJson();
    doc["balance"] = b.balance;
    try {
      env::parseScenario(doc.dump(), "bad");
      ADD_FAILURE() << "accepted " << b.balance.dump();
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(b.path) + ": "), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(b.says), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace morne::test
