// JSON form of states (round trip, validation) and of actions (text, JSON, policy index).

#include "env/io/state_json.h"

#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "env/error.h"
#include "env/io/notation.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "tests/env/problem_lines.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using nlohmann::json;

std::vector<std::string> stateProblems(const env::Scenario& sc, const json& j) {
  return problemLines([&] { env::stateFromJson(sc, j, "state"); });
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

// Every state that play reaches, on every scenario, passes validation: the checks of
// stateFromJson refuse only what the rules cannot produce.
TEST(StateJson, EveryReachedStateValidates) {
  int morale_tests = 0, combat_dice = 0, setups = 0, eliminated = 0;
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    env::ActionList scratch;
    for (uint64_t seed = 1; seed <= 16; ++seed) {
      env::Rng rng(seed);
      env::GameState s = env::newGame(*sc);
      for (int ply = 0; ply < 5000 && !s.isTerminal(); ++ply) {
        const json j = env::stateToJson(s);
        const std::vector<std::string> problems = stateProblems(*sc, j);
        ASSERT_TRUE(problems.empty())
            << name << " seed " << seed << " ply " << ply << ": " << problems.front() << "\n"
            << j.dump();
        morale_tests += s.pending.kind == env::ChanceKind::kMoraleTest;
        combat_dice += s.pending.kind == env::ChanceKind::kCombatDie;
        setups += s.phase == env::Phase::kSetup;
        for (int u = 0; u < s.num_units; ++u) eliminated += s.has(u, env::unit_flag::kEliminated);
        env::playRandomPly(s, rng, scratch);
      }
    }
  }
  // The games reach the states the checks are about.
  EXPECT_GT(morale_tests, 20);
  EXPECT_GT(combat_dice, 20);
  EXPECT_GT(eliminated, 20);
  std::cout << "morale tests " << morale_tests << ", combat dice " << combat_dice
            << ", set-up states " << setups << ", eliminated unit-states " << eliminated << "\n";
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

// The first state of a random duel game (from `seed`) whose pending event is `kind`.
env::GameState firstStateWith(const env::Scenario& sc, env::ChanceKind kind) {
  env::ActionList scratch;
  for (uint64_t seed = 1; seed < 200; ++seed) {
    env::Rng rng(seed);
    env::GameState s = env::newGame(sc);
    while (!s.isTerminal()) {
      if (s.pending.kind == kind) return s;
      env::playRandomPly(s, rng, scratch);
    }
  }
  ADD_FAILURE() << "no random game reached " << env::chanceKindName(kind);
  return env::newGame(sc);
}

// Regressions: each state below was accepted, and the rules then acted on a position they can
// never produce (a session waiting for an action that does not exist, an attacker advancing
// across the map).
TEST(StateJson, RejectsStatesTheRulesCannotProduce) {
  const auto duel = env::loadScenario("duel");

  // A unit awaiting set-up outside its side's set-up (S-2).
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G", .type = "general", .at = {0, 3}, .corps = "I", .radius = 1});
  m.unit({.id = "P1", .corps = "I", .placed_at_setup = true});
  m.setupZone(0, {{0, 0}, {1, 0}});
  m.unit({.id = "O", .side = 1, .at = {0, -4}});
  const auto setup = m.build();
  json j = env::stateToJson(env::newGame(*setup));
  ASSERT_EQ(j["phase"], "setup");
  EXPECT_TRUE(stateProblems(*setup, j).empty());
  j.erase("hash");
  j["phase"] = "movement";
  EXPECT_TRUE(mentions(stateProblems(*setup, j), "/units/1: P1: a unit awaits set-up only"));
  j["phase"] = "setup";
  j["turn"] = 2;
  EXPECT_TRUE(mentions(stateProblems(*setup, j), "/units/1: P1: a unit awaits set-up only"));

  // A set-up phase with nothing to place: no legal action, yet the game is not over.
  j = env::stateToJson(env::newGame(*duel));
  j.erase("hash");
  j["phase"] = "setup";
  EXPECT_TRUE(mentions(stateProblems(*duel, j), "no legal action in this position"));

  // An eliminated unit keeps its VC (C-RET-3 eliminates a unit that cannot retreat), but it
  // has no movement points and no other flag.
  j = env::stateToJson(env::newGame(*duel));
  j.erase("hash");
  j["units"][2]["hex"] = nullptr;
  j["units"][2]["flags"] = {"eliminated"};
  j["units"][2]["mp"] = 0;
  EXPECT_TRUE(stateProblems(*duel, j).empty());
  j["units"][2]["mp"] = 3;
  EXPECT_TRUE(mentions(stateProblems(*duel, j), "an eliminated unit has no other flag and mp 0"));

  // A morale test die for a unit at MO 0 (which fails without a die).
  const env::GameState test = firstStateWith(*duel, env::ChanceKind::kMoraleTest);
  j = env::stateToJson(test);
  j.erase("hash");
  EXPECT_TRUE(stateProblems(*duel, j).empty());
  j["units"][test.pending.unit]["mo"] = 0;
  EXPECT_TRUE(mentions(stateProblems(*duel, j), "rolled only for a unit of morale 1..8"));

  // A combat between units four hexes apart.
  const env::GameState combat = firstStateWith(*duel, env::ChanceKind::kCombatDie);
  j = env::stateToJson(combat);
  j.erase("hash");
  const int defender = combat.combat.defender;
  const env::CellId from = combat.unit(defender).cell;
  std::string far;
  for (env::CellId c = 0; c < duel->numCells() && far.empty(); ++c) {
    if (combat.unitAt(c) < 0 && duel->distance(c, combat.unit(combat.combat.attacker).cell) == 4)
      far = duel->label(c);
  }
  ASSERT_FALSE(far.empty());
  j["units"][defender]["hex"] = far;
  j["combat"]["defender_hex"] = far;
  EXPECT_TRUE(mentions(stateProblems(*duel, j), "must be in contact")) << duel->label(from);
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
        EXPECT_FALSE(env::explainIllegal(s, a)) << env::actionText(s, a);
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
  auto refusal = [&](const std::string& text) {
    const auto a = env::parseActionText(s, text, &error);
    EXPECT_TRUE(a) << error;
    const auto r = a ? env::explainIllegal(s, *a) : std::nullopt;
    EXPECT_TRUE(r) << text << " should be illegal";
    return r.value_or(env::Refusal{env::RefusalReason::kGameOver, "", error});
  };
  auto why = [&](const std::string& text) { return refusal(text).message; };
  const std::string at = TestMap::label(0, 0);
  EXPECT_NE(why("move " + at + " E").find("holds F; no stacking"), std::string::npos);
  EXPECT_NE(why("move " + at + " SE").find("river without bridge or ford"), std::string::npos);
  EXPECT_NE(why("move " + at + " W").find("is a cliff"), std::string::npos);
  EXPECT_NE(why("move " + at + " NE").find("costs 2 movement points; I has 1"), std::string::npos);
  EXPECT_NE(why("move " + TestMap::label(-3, 0) + " E").find("belongs to orange"),
            std::string::npos);
  EXPECT_NE(why("charge " + at + " E").find("not cavalry"), std::string::npos);
  EXPECT_EQ(refusal("move " + at + " E").reason, env::RefusalReason::kHexOccupied);
  EXPECT_EQ(refusal("move " + at + " E").rule, "U-STACK-1");
  EXPECT_EQ(refusal("move " + at + " SE").reason, env::RefusalReason::kImpassableHexside);
  EXPECT_EQ(refusal("move " + at + " W").rule, "MV-COST-4");
  EXPECT_EQ(refusal("move " + at + " NE").reason, env::RefusalReason::kNotEnoughMovementPoints);
  EXPECT_EQ(refusal("move " + TestMap::label(-3, 0) + " E").reason,
            env::RefusalReason::kNotYourUnit);
  EXPECT_EQ(refusal("charge " + at + " E").reason, env::RefusalReason::kNotCavalry);
  // Two hexes no step joins: the rules refuse it (not adjacent), the syntax is fine.
  std::optional<env::Refusal> far;
  EXPECT_FALSE(env::parseActionText(s, "move " + at + ">" + TestMap::label(-3, 0), &error, &far));
  ASSERT_TRUE(far);
  EXPECT_EQ(far->reason, env::RefusalReason::kNotAdjacent);
  EXPECT_EQ(far->rule, "MV-GEN-2");
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
