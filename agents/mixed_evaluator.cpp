#include "agents/mixed_evaluator.h"

#include <array>

namespace morne::agents {

namespace {

class MixedEvaluator : public mcts::Evaluator {
 public:
  MixedEvaluator(std::unique_ptr<mcts::Evaluator> network,
                 std::unique_ptr<mcts::Evaluator> heuristic, LeafMix mix)
      : network_(std::move(network)), heuristic_(std::move(heuristic)), mix_(mix) {}

  double evaluate(const env::GameState& s, std::span<const env::Action> legal,
                  std::span<float> priors) override {
    return mixIn(s, legal, priors, network_->evaluate(s, legal, priors));
  }

  void evaluateBatch(std::span<const mcts::LeafRequest* const> leaves,
                     std::span<double> values) override {
    network_->evaluateBatch(leaves, values);
    for (size_t i = 0; i < leaves.size(); ++i)
      values[i] = mixIn(*leaves[i]->state, leaves[i]->legal, leaves[i]->priors, values[i]);
  }

 private:
  // The mix of `network_value` and the network's `priors` with the heuristics' at `s`.
  double mixIn(const env::GameState& s, std::span<const env::Action> legal, std::span<float> priors,
               double network_value) {
    const bool mix_priors = mix_.prior > 0 && !legal.empty();
    if (!mix_priors && mix_.value == 0) return network_value;
    const std::span<float> rule(rule_priors_.data(), mix_priors ? legal.size() : 0);
    const double rollout =
        heuristic_->evaluate(s, mix_priors ? legal : std::span<const env::Action>(), rule);
    if (mix_priors) {
      const auto p = static_cast<float>(mix_.prior);
      for (size_t i = 0; i < legal.size(); ++i) priors[i] = (1 - p) * priors[i] + p * rule[i];
    }
    if (mix_.value == 0) return network_value;
    return (1 - mix_.value) * network_value + mix_.value * rollout;
  }

  std::unique_ptr<mcts::Evaluator> network_;
  std::unique_ptr<mcts::Evaluator> heuristic_;
  LeafMix mix_;
  std::array<float, env::kMaxLegalActions> rule_priors_{};
};

}  // namespace

std::unique_ptr<mcts::Evaluator> mixEvaluators(std::unique_ptr<mcts::Evaluator> network,
                                               std::unique_ptr<mcts::Evaluator> heuristic,
                                               LeafMix mix) {
  return std::make_unique<MixedEvaluator>(std::move(network), std::move(heuristic), mix);
}

}  // namespace morne::agents
