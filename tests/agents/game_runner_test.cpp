// Agents and the game loop: agent specs, legality of every choice, determinism under a seed.

#include "agents/game_runner.h"

#include <gtest/gtest.h>

#include "agents/agent_spec.h"
#include "env/error.h"
#include "env/scenario_library.h"

namespace morne::test {
namespace {

class LegalityChecker : public agents::GameObserver {
 public:
  void onPly(const env::GameState& before, const agents::Ply& ply, const env::GameState&,
             const env::EventLog&) override {
    if (!ply.chance) {
      EXPECT_TRUE(env::isLegal(before, ply.action));
    }
    ++plies;
  }
  int plies = 0;
};

TEST(Agents, SpecParsing) {
  const agents::AgentSpec spec = agents::parseAgentSpec("mcts:sims=800, cpuct=1.2");
  EXPECT_EQ(spec.name, "mcts");
  EXPECT_EQ(spec.params.at("sims"), "800");
  EXPECT_EQ(spec.params.at("cpuct"), "1.2");
  EXPECT_THROW(agents::parseAgentSpec(":x=1"), ConfigError);
  EXPECT_THROW(agents::parseAgentSpec("mcts:sims"), ConfigError);
  EXPECT_THROW(agents::parseAgentSpec("mcts:a=1,a=2"), ConfigError);
  EXPECT_THROW(agents::makeAgent("alphago", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("random:depth=3", 1), ConfigError);
  EXPECT_EQ(agents::makeAgent("random", 1)->spec(), "random");
}

TEST(Agents, RandomAgentsPlayLegalCompleteGames) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    auto blue = agents::makeAgent("random", 1);
    auto orange = agents::makeAgent("random", 2);
    LegalityChecker checker;
    const agents::GameSummary g = agents::playGame(*sc, *blue, *orange, 7, &checker);
    EXPECT_EQ(static_cast<size_t>(checker.plies), g.plies.size());
    EXPECT_GT(g.decisions, 10);
  }
}

TEST(Agents, SameSeedSameGame) {
  const auto sc = env::loadScenario("crossing");
  auto play = [&](uint64_t seed) {
    auto blue = agents::makeAgent("random", agents::agentSeed(seed, 0));
    auto orange = agents::makeAgent("random", agents::agentSeed(seed, 1));
    return agents::playGame(*sc, *blue, *orange, seed, nullptr);
  };
  const agents::GameSummary a = play(5);
  const agents::GameSummary b = play(5);
  const agents::GameSummary c = play(6);
  EXPECT_EQ(a.final_hash, b.final_hash);
  ASSERT_EQ(a.plies.size(), b.plies.size());
  for (size_t i = 0; i < a.plies.size(); ++i) {
    EXPECT_EQ(a.plies[i].chance, b.plies[i].chance);
    EXPECT_EQ(a.plies[i].action, b.plies[i].action);
    EXPECT_EQ(a.plies[i].outcome, b.plies[i].outcome);
  }
  EXPECT_NE(a.final_hash, c.final_hash);
  EXPECT_NE(agents::agentSeed(5, 0), agents::agentSeed(5, 1));
}

}  // namespace
}  // namespace morne::test
