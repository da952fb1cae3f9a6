// The network agent ("az" specs): legal complete games, determinism under a seed, and clear
// errors for a missing model or a network made for another scenario.

#include "agents/network_agent.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "agents/agent_kinds.h"
#include "agents/game_runner.h"
#include "agents/search_spread.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "mcts/evaluator.h"
#include "nn/cpu_features.h"
#include "nn/network_evaluator.h"
#include "tests/agents/legality_checker.h"
#include "training/network_loader.h"

namespace morne::test {
namespace {

// A small random network for `scenario`, saved to a temporary file.
// The "az" agents load their networks as the binary does (cli/main.cpp).
void useNetworkFiles() { agents::setNetworkLoader(training::loadNetworkEvaluator); }

std::string randomNetworkFile(const std::string& scenario) {
  const auto sc = env::loadScenario(scenario);
  nn::NetworkConfig c = nn::networkConfigFor(*sc);
  c.blocks = 1;
  c.channels = 8;
  const auto dir =
      std::filesystem::temp_directory_path() / ("morne_nn_tests_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / (scenario + ".pt")).string();
  nn::Network::create(c, 3)->save(path);
  return path;
}

TEST(NetworkAgent, PlaysLegalGamesDeterministically) {
  useNetworkFiles();
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
  for (const mcts::RootChild& c : d.info.children) prior_sum += c.prior;
  EXPECT_NEAR(prior_sum, 1.0, 1e-4);
}

TEST(NetworkAgent, ExplainsBadModels) {
  useNetworkFiles();
  EXPECT_THROW(agents::makeAgent("az:sims=8", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("az:model=/nonexistent/net.pt", 1), IoError);
  auto agent = agents::makeAgent("az:model=" + randomNetworkFile("duel") + ",sims=4", 1);
  const auto crossing = env::loadScenario("crossing");
  try {
    agent->decide(env::newGame(*crossing));
    ADD_FAILURE() << "a duel network played crossing";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot play \"crossing\""), std::string::npos)
        << e.what();
  }
}

// One batch of positions gives what the same positions give one at a time (batch norm runs in
// inference mode, so rows do not influence each other).
TEST(NetworkEvaluator, BatchEqualsOneByOne) {
  const std::string model = randomNetworkFile("duel");
  const auto sc = env::loadScenario("duel");
  env::Rng rng(17);
  env::ActionList scratch;
  std::vector<env::GameState> states;
  env::GameState s = env::newGame(*sc);
  while (states.size() < 24) {
    if (s.isTerminal()) s = env::newGame(*sc);
    if (rng.below(3) == 0) states.push_back(s);
    env::playRandomPly(s, rng, scratch);
  }
  std::vector<env::ActionList> legal(states.size());
  std::vector<std::vector<float>> batch_priors(states.size()), single_priors(states.size());
  std::vector<mcts::LeafRequest> requests(states.size());
  std::vector<const mcts::LeafRequest*> leaves;
  for (size_t i = 0; i < states.size(); ++i) {
    if (!states[i].isChanceNode()) env::legalActions(states[i], legal[i]);
    batch_priors[i].assign(legal[i].size(), 0.0f);
    requests[i] = {&states[i], std::span(legal[i].begin(), legal[i].size()), batch_priors[i]};
    leaves.push_back(&requests[i]);
  }
  std::vector<double> values(states.size());
  nn::makeNetworkEvaluator(nn::Network::load(model))->evaluate(leaves, values);
  auto single = mcts::evaluateOneByOne(nn::makeNetworkEvaluator(nn::Network::load(model)));
  for (size_t i = 0; i < states.size(); ++i) {
    single_priors[i].assign(legal[i].size(), 0.0f);
    const double v = single->evaluate(states[i], requests[i].legal, single_priors[i]);
    EXPECT_NEAR(v, values[i], 1e-5) << "position " << i;
    for (size_t k = 0; k < legal[i].size(); ++k)
      EXPECT_NEAR(single_priors[i][k], batch_priors[i][k], 1e-5);
  }
}

TEST(NetworkAgent, GumbelAndNoiseSpecsPlayLegalGames) {
  useNetworkFiles();
  const std::string model = randomNetworkFile("duel");
  const auto sc = env::loadScenario("duel");
  auto blue = agents::makeAgent("az:model=" + model + ",sims=6,gumbel=1,gumbel_actions=4", 1);
  auto orange = agents::makeAgent("az:model=" + model + ",sims=6,noise=0.3", 2);
  LegalityChecker checker;
  const agents::GameSummary g = agents::playGame(*sc, *blue, *orange, 5, &checker);
  EXPECT_GT(g.plies.size(), 20u);
  EXPECT_THROW(agents::makeAgent("az:model=" + model + ",ms=10,gumbel=1", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("az:model=" + model + ",threads=2,gumbel=1", 1), ConfigError);
}

// precision=bf16: the agent's spec says it, its games are legal and the same for the same seed;
// refused on a CPU without the instructions, as is an unknown precision everywhere.
TEST(NetworkAgent, ABFloat16AgentPlaysLegalReproducibleGames) {
  useNetworkFiles();
  const std::string model = randomNetworkFile("duel");
  EXPECT_THROW(agents::makeAgent("az:model=" + model + ",precision=fp16", 1), ConfigError);
  const std::string base = "az:model=" + model + ",sims=8";
  const std::string spec = base + ",precision=bf16";
  if (!nn::cpuHasBFloat16()) {
    EXPECT_THROW(agents::makeAgent(spec, 1), ConfigError);
    GTEST_SKIP() << "this CPU has no AVX-512 BF16";
  }
  EXPECT_EQ(agents::makeAgent(spec, 1)->spec(), base + ",cpuct=1.5,threads=1,precision=bf16");
  const auto sc = env::loadScenario("duel");
  auto play = [&](uint64_t seed) {
    auto blue = agents::makeAgent(spec, agents::agentSeed(seed, 0));
    auto orange = agents::makeAgent(spec, agents::agentSeed(seed, 1));
    LegalityChecker checker;
    return agents::playGame(*sc, *blue, *orange, seed, &checker);
  };
  const agents::GameSummary a = play(4), b = play(4);
  EXPECT_GT(a.plies.size(), 20u);
  EXPECT_EQ(a.final_hash, b.final_hash);
}

// The search spread (agents/search_spread.h): no search spreads nothing; a search that tells
// moves apart spreads its children's values (mcts's rollouts, the shipped duel network); the
// shipped crossing network, whose value head learned a constant (about +-0.82 for the side to
// move, docs/learning-results.md), spreads less than half of duel's. (If a new crossing
// network learns values, this test says so, and its last line should go.)
TEST(SearchSpread, TheProbeTellsAConstantValueHeadFromATrainedOne) {
  useNetworkFiles();
  const auto sc = env::loadScenario("duel");
  const std::vector<env::GameState> positions = agents::ruleGamePositions(*sc, 1, 8);
  ASSERT_EQ(positions.size(), 8u);
  for (const env::GameState& s : positions) {
    env::ActionList legal;
    env::legalActions(s, legal);
    EXPECT_GT(legal.size(), 1u);
  }
  EXPECT_EQ(agents::searchValueSpread("random", positions), 0) << "no search, no spread";
  const std::string shipped = std::string(MORNE_SOURCE_DIR) + "/models/duel.pt";
  const double trained = agents::searchValueSpread("az:model=" + shipped + ",sims=200", positions);
  const double rollouts = agents::searchValueSpread("mcts:sims=200", positions);
  const auto crossing = env::loadScenario("crossing");
  const double flat = agents::searchValueSpread(
      "az:model=" + std::string(MORNE_SOURCE_DIR) + "/models/crossing.pt,sims=200",
      agents::ruleGamePositions(*crossing, 1, 8));
  std::cout << "search spread on duel, 8 positions: duel.pt " << trained << ", mcts " << rollouts
            << "; crossing.pt on crossing " << flat << "\n";
  EXPECT_GT(trained, 0.02);
  EXPECT_GT(rollouts, 0.02);
  EXPECT_LT(flat, trained / 2);
}

}  // namespace
}  // namespace morne::test
