// Victory (§8): victory levels (worked-examples.md §12, WX-V-*), occupied and passing hexes,
// generals and zones.

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace morne::test
