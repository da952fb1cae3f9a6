// The network agent ("az" specs): legal complete games, determinism under a seed, and clear
// errors for a missing model or a network made for another scenario.

#include "agents/network_agent.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "agents/agent_spec.h"
#include "agents/game_runner.h"
#include "agents/observation.h"
#include "agents/policy_layout.h"
#include "env/error.h"
#include "env/scenario_library.h"

namespace morne::test {
namespace {

// A small random network for `scenario`, saved to a temporary file.
std::string randomNetworkFile(const std::string& scenario) {
  const auto sc = env::loadScenario(scenario);
  agents::NetworkConfig c;
  c.input = agents::ObservationEncoder(*sc).shape();
  c.policy_planes = agents::PolicyLayout(*sc).planes();
  c.blocks = 1;
  c.channels = 8;
  c.scenario = scenario;
  const auto dir = std::filesystem::temp_directory_path() / ("morne_nn_tests_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / (scenario + ".pt")).string();
  agents::Network::create(c, 3)->save(path);
  return path;
}

class LegalityChecker : public agents::GameObserver {
 public:
  void onPly(const env::GameState& before, const agents::Ply& ply, const env::GameState&,
             const env::EventLog&) override {
    if (!ply.chance) {
      EXPECT_TRUE(env::isLegal(before, ply.action));
    }
  }
};

TEST(NetworkAgent, PlaysLegalGamesDeterministically) {
  agents::registerNetworkAgents();
  const std::string model = randomNetworkFile("duel");
  const auto sc = env::loadScenario("duel");
  const std::string spec = "az:model=" + model + ",sims=8";
  auto play = [&](uint64_t seed) {
    auto blue = agents::makeAgent(spec, agents::agentSeed(seed, 0));
    auto orange = agents::makeAgent("random", agents::agentSeed(seed, 1));
    LegalityChecker checker;
    return agents::playGame(*sc, *blue, *orange, seed, &checker);
  };
  const agents::GameSummary a = play(3), b = play(3);
  EXPECT_TRUE(a.plies.size() > 20);
  EXPECT_EQ(a.final_hash, b.final_hash);
  auto agent = agents::makeAgent(spec, 1);
  EXPECT_EQ(agent->spec(), spec + ",cpuct=1.5,threads=1");
  const agents::Decision d = agent->decide(env::newGame(*sc));
  EXPECT_EQ(d.info.simulations, 8);
  double prior_sum = 0;
  for (const agents::ActionStat& c : d.info.children) prior_sum += c.prior;
  EXPECT_NEAR(prior_sum, 1.0, 1e-4);
}

TEST(NetworkAgent, ExplainsBadModels) {
  agents::registerNetworkAgents();
  EXPECT_THROW(agents::makeAgent("az:sims=8", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("az:model=/nonexistent/net.pt", 1), IoError);
  auto agent = agents::makeAgent("az:model=" + randomNetworkFile("duel") + ",sims=4", 1);
  const auto crossing = env::loadScenario("crossing");
  try {
    agent->decide(env::newGame(*crossing));
    ADD_FAILURE() << "a duel network played crossing";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot play \"crossing\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace morne::test
