// Generic property test over many seeded random games on every built-in scenario (after
// OpenSpiel's RandomSimTest): invariants checked at every state of every game.

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/rules.h"
#include "tests/env/reference_rules.h"

namespace morne::test {
namespace {

void checkInvariants(const env::GameState& s) {
  const env::Scenario& sc = s.sc();
  // Copy equals original, bit for bit.
  const env::GameState copy = s;
  ASSERT_EQ(copy, s);
  ASSERT_EQ(std::memcmp(&copy, &s, sizeof s), 0);
  // Incremental hash equals the hash recomputed from scratch.
  ASSERT_EQ(s.hash, env::computeHash(s));
  // No stacking, consistent occupancy, values within limits.
  int on_map = 0;
  for (int u = 0; u < s.num_units; ++u) {
    const env::UnitState& us = s.unit(u);
    ASSERT_GE(us.mp, 0);
    ASSERT_GE(us.mo, 0);
    ASSERT_LE(us.mo, sc.unit(u).mo);
    if (us.cell == env::kNoCell) continue;
    ++on_map;
    ASSERT_EQ(s.unitAt(us.cell), u) << "unit_at out of step";
    ASSERT_GE(us.vc, 1);
    ASSERT_LE(us.vc, sc.unit(u).vc);
  }
  int occupied = 0;
  for (env::CellId c = 0; c < sc.numCells(); ++c) occupied += s.unitAt(c) >= 0;
  ASSERT_EQ(occupied, on_map) << "two units share a hex";
  ASSERT_LE(s.turn, sc.turns());
  if (s.isChanceNode()) {
    env::ChanceList outcomes;
    env::chanceOutcomes(s, outcomes);
    ASSERT_FALSE(outcomes.empty());
    int num = 0;
    for (const env::ChanceOutcome& o : outcomes) {
      ASSERT_EQ(o.den, outcomes[0].den);
      num += o.num;
    }
    ASSERT_EQ(num, outcomes[0].den) << "chance probabilities must sum to 1";
  } else if (!s.isTerminal()) {
    env::ActionList legal;
    env::legalActions(s, legal);
    ASSERT_FALSE(legal.empty());
    for (size_t i = 1; i < legal.size(); ++i) ASSERT_LT(legal[i - 1], legal[i]) << "sorted, unique";
  }
}

// C-GEN-1 over one combat phase: each unit attacks at most once and is attacked at most once.
struct CombatPhaseLimits {
  std::set<int> attackers;
  std::set<int> defenders;
};

void checkCombatLimits(const env::EventLog& log, CombatPhaseLimits& limits) {
  for (const env::Event& e : log) {
    if (e.type == env::EventType::kPhaseBegins && e.a == static_cast<int>(env::Phase::kCombat)) {
      limits = {};
    }
    // An attack its attacker's nerve refused did not engage the defender (V-MOR-7).
    if (e.type == env::EventType::kAttackRefused) limits.defenders.erase(e.other);
    if (e.type != env::EventType::kAttack) continue;
    EXPECT_TRUE(limits.attackers.insert(e.unit).second) << "a unit attacked twice in one phase";
    EXPECT_TRUE(limits.defenders.insert(e.other).second)
        << "a unit was attacked twice in one phase";
  }
}

// How often each event type happened over a batch of games.
using EventCounts = std::map<env::EventType, int>;

// A random action, or with `aggressive` a random attack or charge whenever there is one (random
// play alone seldom fights, and the variant modules act in combat).
env::Action randomAction(const env::ActionList& legal, env::Rng& rng, bool aggressive) {
  if (aggressive) {
    std::vector<env::Action> fights;
    for (const env::Action& a : legal) {
      if (a.kind == env::ActionKind::kAttack || a.kind == env::ActionKind::kCharge)
        fights.push_back(a);
    }
    if (!fights.empty()) return fights[rng.below(static_cast<uint32_t>(fights.size()))];
  }
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

void randomGames(const std::string& name, int games, uint64_t seed, EventCounts* counts = nullptr,
                 bool aggressive = false) {
  // A name with a '{' is an inline scenario (a variant document).
  const auto sc = name.find('{') == std::string::npos ? env::loadScenario(name)
                                                      : env::parseScenario(name, "<inline>");
  env::Rng rng(seed);
  env::ActionList scratch;
  for (int g = 0; g < games; ++g) {
    env::GameState s = env::newGame(*sc);
    CombatPhaseLimits combat_phase;
    int plies = 0;
    while (!s.isTerminal()) {
      checkInvariants(s);
      if (::testing::Test::HasFatalFailure()) return;
      const nlohmann::json j = env::stateToJson(s);
      ASSERT_EQ(env::stateFromJson(*sc, j, "round trip"), s) << "JSON round trip";
      if (plies % 37 == 0) {
        env::ActionList legal;
        env::legalActions(s, legal);
        ASSERT_EQ(std::vector<env::Action>(legal.begin(), legal.end()), referenceLegalActions(s))
            << name << " game " << g << " ply " << plies << "\n"
            << j.dump();
      }
      env::EventLog log;
      const bool chance = s.isChanceNode();
      if (chance) {
        env::applyChance(s, env::sampleChance(s, rng), &log);
      } else {
        env::legalActions(s, scratch);
        env::applyAction(s, randomAction(scratch, rng, aggressive), &log);
      }
      checkCombatLimits(log, combat_phase);
      if (counts) {
        for (const env::Event& e : log) ++(*counts)[e.type];
      }
      ASSERT_LT(++plies, 200000) << "a game must end within the turn limit";
    }
    checkInvariants(s);
    const env::GameResult r = env::gameResult(s);
    ASSERT_GE(r.level, 0);
    ASSERT_LE(r.level, 4);
    ASSERT_EQ(s.turn, sc->turns());
  }
}

TEST(Property, RandomGamesDuel) { randomGames("duel", 60, 1); }
TEST(Property, RandomGamesCrossing) { randomGames("crossing", 12, 2); }
TEST(Property, RandomGamesPyramids) { randomGames("pyramids", 15, 3); }

// The variant modules (docs/variants.md): the same invariants, and each module's events do
// happen in random play.
// The duel under the variant modules `rules` (a JSON object text): a small map where random
// play fights often.
std::string duelVariant(const std::string& rules) {
  return R"({"format": "morne-scenario/1", "variant_of": "duel", "name": "duel-variant",
             "rules": )" +
         rules + "}";
}

TEST(Property, RandomGamesAncient_V_ROUT_V_PUR) {
  randomGames("crossing-ancient", 4, 4, nullptr, true);
  EventCounts n;
  randomGames(duelVariant(R"({"morale_model": "ancient_2d6", "failed_test": "ancient_rout",
                              "pursuit": "ancient"})"),
              40, 4, &n, true);
  EXPECT_GT(n[env::EventType::kMoraleResult], 0);
  EXPECT_GT(n[env::EventType::kRout], 0);
  EXPECT_GT(n[env::EventType::kPursuit], 0);
  EXPECT_GT(n[env::EventType::kFreeAttack], 0);
  EXPECT_GT(n[env::EventType::kBackInOrder], 0);
  EXPECT_EQ(n[env::EventType::kMoraleTest], 0) << "the d9 test is replaced";
  EXPECT_EQ(n[env::EventType::kRetreat], 0) << "a failed test routs instead";
}

// Seed 001's readings that are switches: tests after every fire and combat, the defender's
// pursuit; and the test to attack at poor odds, which random attacks often fail.
TEST(Property, RandomGamesAncientSeedReadings_V_MOR_7_V_MOR_8_V_PUR_6) {
  EventCounts n;
  randomGames(duelVariant(R"({"morale_model": "ancient_2d6", "failed_test": "ancient_rout",
                              "pursuit": "ancient", "ancient_tests": "every_fire_and_combat",
                              "defender_pursues": true, "pursuers_follow_off_map": false})"),
              40, 7, &n, true);
  EXPECT_GT(n[env::EventType::kAttackRefused], 0);
  EXPECT_GT(n[env::EventType::kRout], 0);
  EXPECT_GT(n[env::EventType::kPursuit], 0);
}

TEST(Property, RandomGamesGraded_V_MOR_5_V_ROUT_6) {
  randomGames("crossing-graded", 4, 5, nullptr, true);
  EventCounts n;
  randomGames(duelVariant(R"({"morale_model": "graded_d6", "failed_test": "graded"})"), 40, 5, &n,
              true);
  EXPECT_GT(n[env::EventType::kMoraleResult], 0);
  EXPECT_GT(n[env::EventType::kHalt], 0);
  EXPECT_GT(n[env::EventType::kRetreat], 0);
  EXPECT_GT(n[env::EventType::kRout], 0);
  EXPECT_EQ(n[env::EventType::kPursuit], 0) << "pursuit stays off";
}

TEST(Property, RandomGamesMelee_V_MEL) {
  randomGames("crossing-melee", 4, 6, nullptr, true);
  EventCounts n;
  randomGames(duelVariant(R"({"melee_factors": "seed003"})"), 40, 6, &n, true);
  EXPECT_GT(n[env::EventType::kMoraleTest], 0) << "Morne Plaine's own morale test stays";
  EXPECT_EQ(n[env::EventType::kRout], 0);
}

TEST(Property, SameSeedSameGame) {
  const auto sc = env::loadScenario("crossing");
  auto play = [&](uint64_t seed) {
    env::Rng rng(seed);
    env::ActionList scratch;
    env::GameState s = env::newGame(*sc);
    while (!s.isTerminal()) env::playRandomPly(s, rng, scratch);
    return s.hash;
  };
  EXPECT_EQ(play(42), play(42));
  EXPECT_NE(play(42), play(43));
}

}  // namespace
}  // namespace morne::test
