// The az agent's mixed leaf evaluation (agents/mixed_evaluator.h): the network's value and
// priors at weight 0, the mcts agent's rollout value and rule priors at weight 1, the weighted
// sum between (hand cases on duel's first position); a batch is mixed leaf by leaf as alone.

#include "agents/mixed_evaluator.h"

#include <gtest/gtest.h>

#include <vector>

#include "agents/mcts_agent.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"

namespace morne::test {
namespace {

// A network stand-in: the value 0.3 everywhere and uniform priors.
class FlatNetwork : public mcts::Evaluator {
 public:
  double evaluate(const env::GameState&, std::span<const env::Action> legal,
                  std::span<float> priors) override {
    for (size_t i = 0; i < legal.size(); ++i) priors[i] = 1.0f / static_cast<float>(legal.size());
    return 0.3;
  }
};

struct Leaf {
  double value = 0;
  std::vector<float> priors;
};

class MixedEvaluatorTest : public ::testing::Test {
 protected:
  MixedEvaluatorTest() : sc_(env::loadScenario("duel")), s_(env::newGame(*sc_)) {
    env::legalActions(s_, legal_);
  }

  // The leaf as `mix` evaluates it, with the heuristics of `params` seeded 5.
  Leaf mixed(agents::LeafMix mix, const agents::MctsAgentParams& params) {
    auto e = agents::mixEvaluators(std::make_unique<FlatNetwork>(),
                                   agents::makeHeuristicEvaluator(params, 5), mix);
    return evaluate(*e);
  }

  // The leaf as the mcts agent's own evaluator sees it, seeded 5.
  Leaf heuristic(const agents::MctsAgentParams& params) {
    return evaluate(*agents::makeHeuristicEvaluator(params, 5));
  }

  Leaf evaluate(mcts::Evaluator& e) {
    Leaf leaf;
    leaf.priors.resize(legal_.size());
    leaf.value = e.evaluate(s_, std::span(legal_.begin(), legal_.size()), leaf.priors);
    return leaf;
  }

  std::shared_ptr<const env::Scenario> sc_;
  env::GameState s_;
  env::ActionList legal_;
};

TEST_F(MixedEvaluatorTest, WeightZeroIsTheNetworkAndWeightOneTheHeuristics) {
  ASSERT_GT(legal_.size(), 1u);
  const agents::MctsAgentParams params;  // a one-turn rule rollout
  const Leaf network = mixed({0, 0}, params);
  EXPECT_DOUBLE_EQ(network.value, 0.3);
  for (float p : network.priors) EXPECT_FLOAT_EQ(p, 1.0f / static_cast<float>(legal_.size()));

  const Leaf rule = heuristic(params);
  const Leaf full = mixed({1, 1}, params);
  EXPECT_DOUBLE_EQ(full.value, rule.value);
  for (size_t i = 0; i < legal_.size(); ++i) EXPECT_FLOAT_EQ(full.priors[i], rule.priors[i]);
  EXPECT_NE(rule.value, 0.3) << "the case must tell the two values apart";
}

TEST_F(MixedEvaluatorTest, BetweenTheWeightsTheSumIsWeighted) {
  const agents::MctsAgentParams params;
  const Leaf rule = heuristic(params);
  const Leaf half = mixed({0.25, 0.5}, params);
  EXPECT_NEAR(half.value, 0.75 * 0.3 + 0.25 * rule.value, 1e-12);
  float total = 0;
  for (size_t i = 0; i < legal_.size(); ++i) {
    EXPECT_FLOAT_EQ(half.priors[i],
                    0.5f / static_cast<float>(legal_.size()) + 0.5f * rule.priors[i]);
    total += half.priors[i];
  }
  EXPECT_NEAR(total, 1.0f, 1e-5f);
  // Priors alone: the value stays the network's.
  EXPECT_DOUBLE_EQ(mixed({0, 0.5}, params).value, 0.3);
}

TEST_F(MixedEvaluatorTest, ABatchIsMixedLeafByLeafAsEachAlone) {
  const agents::MctsAgentParams params;
  const Leaf alone = mixed({0.25, 0.5}, params);
  env::GameState after = s_;
  env::applyAction(after, legal_[0]);
  auto e = agents::mixEvaluators(std::make_unique<FlatNetwork>(),
                                 agents::makeHeuristicEvaluator(params, 5), {0.25, 0.5});
  std::vector<float> first(legal_.size()), second(legal_.size());
  env::ActionList legal_after;
  env::legalActions(after, legal_after);
  second.resize(legal_after.size());
  const mcts::LeafRequest a{&s_, std::span(legal_.begin(), legal_.size()), first};
  const mcts::LeafRequest b{&after, std::span(legal_after.begin(), legal_after.size()), second};
  const mcts::LeafRequest* leaves[] = {&a, &b};
  double values[2] = {0, 0};
  e->evaluateBatch(leaves, values);
  EXPECT_DOUBLE_EQ(values[0], alone.value);
  for (size_t i = 0; i < legal_.size(); ++i) EXPECT_FLOAT_EQ(first[i], alone.priors[i]);
  EXPECT_NE(values[1], 0.3) << "the second leaf is mixed too";
}

}  // namespace
}  // namespace morne::test
