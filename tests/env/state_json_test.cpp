// JSON form of states (round trip, validation) and of actions (text, JSON, policy index).

#include "env/state_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "env/error.h"
#include "env/notation.h"
#include "env/rules.h"
#include "env/scenario_library.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using nlohmann::json;

std::vector<std::string> stateProblems(const env::Scenario& sc, const json& j) {
  try {
    env::stateFromJson(sc, j, "state");
  } catch (const ValidationError& e) {
    std::vector<std::string> out;
    for (const Problem& p : e.problems()) out.push_back(p.path + ": " + p.message);
    return out;
  }
  return {};
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  for (const std::string& p : problems) {
    if (p.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(StateJson, RoundTripIsExact) {
  const auto sc = env::loadScenario("duel");
  env::GameState s = env::newGame(*sc);
  env::Rng rng(5);
  env::ActionList scratch;
  for (int i = 0; i < 300 && !s.isTerminal(); ++i) {
    const json j = env::stateToJson(s);
    const env::GameState back = env::stateFromJson(*sc, j, "round trip");
    ASSERT_EQ(back, s) << j.dump();
    ASSERT_EQ(env::stateToJson(back), j);
    env::playRandomPly(s, rng, scratch);
  }
}

TEST(StateJson, RejectsInconsistentStates) {
  const auto sc = env::loadScenario("duel");
  const json good = env::stateToJson(env::newGame(*sc));
  json j = good;
  j["units"][1]["hex"] = j["units"][0]["hex"];
  EXPECT_TRUE(mentions(stateProblems(*sc, j), "/units/1/hex: hex 0408 already holds B-G"));
  j = good;
  j["units"][1]["vc"] = 9;
  EXPECT_TRUE(mentions(stateProblems(*sc, j), "/units/1/vc: value 9 is out of range 1..4"));
  j = good;
  j["units"].erase(2);
  EXPECT_TRUE(mentions(stateProblems(*sc, j), "unit \"B-C1\" is missing"));
  j = good;
  j["units"][0]["flags"].push_back("heroic");
  EXPECT_TRUE(mentions(stateProblems(*sc, j), "unknown flag \"heroic\""));
  j = good;
  j["units"][1]["mo"] = 1;
  EXPECT_TRUE(mentions(stateProblems(*sc, j), "/hash: does not match"));
  j.erase("hash");
  EXPECT_TRUE(stateProblems(*sc, j).empty()) << "an edited state without hash loads";
  j = good;
  j["pending"] = {{"kind", "marsh_test"}, {"unit", "B-I1"}};
  EXPECT_TRUE(mentions(stateProblems(*sc, j), "marsh test needs"));
  j = good;
  j["phase"] = "lunch";
  EXPECT_TRUE(mentions(stateProblems(*sc, j), "/phase: unknown phase"));
}

TEST(Notation, EveryLegalActionRoundTripsThroughTextJsonAndIndex) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    env::GameState s = env::newGame(*sc);
    env::Rng rng(11);
    int checked = 0;
    while (!s.isTerminal() && checked < 3000) {
      if (s.isChanceNode()) {
        env::applyChance(s, env::sampleChance(s, rng));
        continue;
      }
      env::ActionList legal;
      env::legalActions(s, legal);
      for (const env::Action& a : legal) {
        std::string error;
        const auto from_text = env::parseActionText(s, env::actionText(s, a), &error);
        ASSERT_TRUE(from_text && *from_text == a) << env::actionText(s, a) << ": " << error;
        const auto from_json = env::parseActionJson(s, env::actionJson(s, a), &error);
        ASSERT_TRUE(from_json && *from_json == a) << env::actionJson(s, a).dump() << ": " << error;
        const int index = env::actionIndex(*sc, a);
        ASSERT_GE(index, 0);
        ASSERT_LT(index, env::actionSpaceSize(*sc));
        ASSERT_EQ(env::actionFromIndex(*sc, index), a);
        EXPECT_EQ(env::explainIllegal(s, a), "");
        ++checked;
      }
      env::applyAction(s, legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    EXPECT_GT(checked, 500) << name;
  }
}

TEST(Notation, ActionIndexCoversTheWholeSpace) {
  const auto sc = env::loadScenario("crossing");
  for (int i = 0; i < env::actionSpaceSize(*sc); ++i) {
    const auto a = env::actionFromIndex(*sc, i);
    ASSERT_TRUE(a);
    ASSERT_EQ(env::actionIndex(*sc, *a), i);
  }
  EXPECT_FALSE(env::actionFromIndex(*sc, -1));
  EXPECT_FALSE(env::actionFromIndex(*sc, env::actionSpaceSize(*sc)));
}

TEST(Notation, ExplainsIllegalActions) {
  TestMap m;
  m.unit({.id = "I", .at = {0, 0}, .ma = 1}).unit({.id = "F", .at = {1, 0}});
  m.unit({.id = "E", .side = 1, .at = {-3, 0}});
  m.water({0, 0}, {0, 1}, "river").level({-1, 0}, 2).terrain({1, -1}, "woods");
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  std::string error;
  auto why = [&](const std::string& text) {
    const auto a = env::parseActionText(s, text, &error);
    EXPECT_TRUE(a) << error;
    return a ? env::explainIllegal(s, *a) : error;
  };
  const std::string at = TestMap::label(0, 0);
  EXPECT_NE(why("move " + at + " E").find("holds F; no stacking"), std::string::npos);
  EXPECT_NE(why("move " + at + " SE").find("river without bridge or ford"), std::string::npos);
  EXPECT_NE(why("move " + at + " W").find("is a cliff"), std::string::npos);
  EXPECT_NE(why("move " + at + " NE").find("costs 2 movement points; I has 1"), std::string::npos);
  EXPECT_NE(why("move " + TestMap::label(-3, 0) + " E").find("belongs to orange"),
            std::string::npos);
  EXPECT_NE(why("charge " + at + " E").find("not cavalry"), std::string::npos);
  EXPECT_FALSE(env::parseActionText(s, "move 9999>0101", &error));
  EXPECT_NE(error.find("not a hex of this map"), std::string::npos);
  EXPECT_FALSE(env::parseActionText(s, "dance", &error));
  EXPECT_NE(error.find("unknown action"), std::string::npos);
  EXPECT_FALSE(
      env::parseActionJson(s, json{{"type", "move"}, {"from", at}, {"to", "0101"}}, &error));
  EXPECT_EQ(error.rfind("/to:", 0), 0u) << error;
  EXPECT_FALSE(env::parseActionJson(
      s, json{{"type", "move"}, {"from", at}, {"to", TestMap::label(1, 0)}, {"unit", "X"}},
      &error));
  EXPECT_EQ(error.rfind("/unit:", 0), 0u) << error;
}

}  // namespace
}  // namespace morne::test
