// Agent-side pruning (env/agent_actions.h): agents never step a unit back into either of the
// last two hexes it left this player-turn; the rules still allow it (MV-GEN-1), so the legal
// list keeps those steps. The step trail that records them is part of the hash and of the
// saved position.

#include "env/agent_actions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "env/error.h"
#include "env/io/state_json.h"
#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

int dirTo(Hex a, Hex b) { return *env::directionBetween(a, b); }

bool offered(const env::ActionList& list, env::Action a) {
  return std::find(list.begin(), list.end(), a) != list.end();
}

struct Walk {
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s;
  env::Action step(Hex from, Hex to) const {
    return env::Action::move(cellOf(*sc, from), dirTo(from, to));
  }
};

// An infantry unit with 6 MP in the open, far from any enemy, in its movement phase.
Walk openField() {
  TestMap m;
  m.unit({.id = "I", .at = {0, 0}, .ma = 6});
  m.unit({.id = "E", .side = 1, .at = {6, -6}});
  Walk w{m.build(), {}};
  w.s = stateIn(*w.sc, env::Phase::kMovement, 0);
  return w;
}

TEST(AgentActions, StepBackIntoTheHexJustLeftIsLegalButNotOffered_MV_GEN_1) {
  Walk w = openField();
  env::applyAction(w.s, w.step({0, 0}, {1, 0}));
  env::ActionList legal, agent;
  env::legalActions(w.s, legal);
  env::agentActions(w.s, agent);
  const env::Action back = w.step({1, 0}, {0, 0});
  EXPECT_TRUE(offered(legal, back));
  EXPECT_FALSE(offered(agent, back));
  EXPECT_TRUE(env::isReturnStep(w.s, back));
  EXPECT_EQ(agent.size() + 1, legal.size());  // only the step back is pruned
  EXPECT_TRUE(offered(agent, w.step({1, 0}, {2, 0})));
}

TEST(AgentActions, ThreeStepLoopAroundACornerIsNotOffered) {
  Walk w = openField();
  env::applyAction(w.s, w.step({0, 0}, {1, 0}));
  env::applyAction(w.s, w.step({1, 0}, {1, -1}));  // {1,-1} is adjacent to {0,0}
  env::ActionList agent;
  env::agentActions(w.s, agent);
  EXPECT_FALSE(offered(agent, w.step({1, -1}, {0, 0})));  // closes the triangle
  EXPECT_FALSE(offered(agent, w.step({1, -1}, {1, 0})));  // plain reversal
  EXPECT_TRUE(offered(agent, w.step({1, -1}, {0, -1})));
}

TEST(AgentActions, TrailForgetsOlderSteps) {
  Walk w = openField();
  env::applyAction(w.s, w.step({0, 0}, {1, 0}));
  env::applyAction(w.s, w.step({1, 0}, {2, 0}));
  env::applyAction(w.s, w.step({2, 0}, {2, -1}));
  // {1,0} was left two steps ago and is still remembered; {0,0} three steps ago is not
  // adjacent anyway. A unit may come back to a hex after a longer loop (at least 4 steps).
  env::ActionList agent;
  env::agentActions(w.s, agent);
  EXPECT_FALSE(offered(agent, w.step({2, -1}, {2, 0})));
  EXPECT_FALSE(offered(agent, w.step({2, -1}, {1, 0})));
  EXPECT_TRUE(offered(agent, w.step({2, -1}, {1, -1})));
}

// The reasons the rules give to step straight back stay, once per excursion: from a passing
// hex just taken (V-HEX-2) ...
TEST(AgentActions, MayStepBackFromAPassingHexOnce_V_HEX_2) {
  TestMap m;
  m.unit({.id = "I", .at = {0, 0}, .ma = 6});
  m.unit({.id = "E", .side = 1, .at = {6, -6}});
  m.objective({1, 0}, true, 1, 1);
  Walk w{m.build(), {}};
  w.s = stateIn(*w.sc, env::Phase::kMovement, 0);
  env::applyAction(w.s, w.step({0, 0}, {1, 0}));  // takes the passing hex
  env::ActionList agent;
  env::agentActions(w.s, agent);
  EXPECT_TRUE(offered(agent, w.step({1, 0}, {0, 0})));
  env::applyAction(w.s, w.step({1, 0}, {0, 0}));
  env::agentActions(w.s, agent);
  EXPECT_FALSE(offered(agent, w.step({0, 0}, {1, 0}))) << "no second round trip";
}

// ... and cavalry that must move before it charges, going back into contact (MV-CHG-5).
TEST(AgentActions, CavalryMayStepBackIntoContactToCharge_MV_CHG_5) {
  TestMap m;
  m.unit({.id = "C", .type = "cavalry", .at = {0, 0}, .ma = 5});
  m.unit({.id = "E", .side = 1, .at = {-1, 0}});
  Walk w{m.build(), {}};
  w.s = stateIn(*w.sc, env::Phase::kMovement, 0);
  ASSERT_TRUE(w.s.sc().rules().charge_requires_move);
  env::applyAction(w.s, w.step({0, 0}, {1, 0}));  // out of contact: it has now moved
  env::ActionList agent;
  env::agentActions(w.s, agent);
  EXPECT_TRUE(offered(agent, w.step({1, 0}, {0, 0})));
  // An infantry unit has no such reason.
  TestMap n;
  n.unit({.id = "I", .at = {0, 0}, .ma = 5});
  n.unit({.id = "E", .side = 1, .at = {-1, 0}});
  Walk v{n.build(), {}};
  v.s = stateIn(*v.sc, env::Phase::kMovement, 0);
  env::applyAction(v.s, v.step({0, 0}, {1, 0}));
  env::agentActions(v.s, agent);
  EXPECT_FALSE(offered(agent, v.step({1, 0}, {0, 0})));
}

TEST(AgentActions, TrailIsHashedSavedAndClearedAtTheNextPlayerTurn) {
  Walk w = openField();
  const env::GameState start = w.s;
  env::applyAction(w.s, w.step({0, 0}, {1, 0}));
  env::applyAction(w.s, w.step({1, 0}, {0, 0}));  // legal: back where it started
  const int u = unitOf(*w.sc, "I");
  EXPECT_EQ(w.s.unit(u).cell, start.unit(u).cell);
  EXPECT_NE(w.s.unit(u).trail, 0);
  EXPECT_EQ(w.s.hash, env::computeHash(w.s));
  EXPECT_NE(w.s.hash, start.hash);
  const nlohmann::json j = env::stateToJson(w.s);
  EXPECT_EQ(j["units"][static_cast<size_t>(u)]["trail"], nlohmann::json({"E", "W"}));
  EXPECT_EQ(env::stateFromJson(*w.sc, j, "test"), w.s);
  env::applyAction(w.s, env::Action::end());
  while (!w.s.isTerminal() && w.s.side == 0) {
    if (w.s.isChanceNode()) {
      env::applyChance(w.s, 1);
    } else {
      env::applyAction(w.s, env::Action::end());
    }
  }
  EXPECT_EQ(w.s.unit(u).trail, 0);
}

TEST(AgentActions, SavedTrailIsChecked) {
  Walk w = openField();
  nlohmann::json j = env::stateToJson(w.s);
  j["units"][0]["trail"] = {"E", "W", "E"};
  EXPECT_THROW(env::stateFromJson(*w.sc, j, "test"), ValidationError);
  j["units"][0]["trail"] = {"north"};
  EXPECT_THROW(env::stateFromJson(*w.sc, j, "test"), ValidationError);
}

}  // namespace
}  // namespace morne::test
