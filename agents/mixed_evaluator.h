#pragma once
// A network's leaf evaluation mixed with the search agent's heuristics (agents/mcts_agent.h), as
// AlphaGo mixed its value network with fast rollouts: the leaf value is
// (1 - value) * v_network + value * v_rollout, and the priors are
// (1 - prior) * p_network + prior * p_rule. What "az:mix=...,rule_prior=..." searches with.

#include <memory>

#include "mcts/evaluator.h"

namespace morne::agents {

// The weights of the heuristics in the mix, each in [0, 1]; 0 leaves the network's alone.
struct LeafMix {
  double value = 0;  // of the rollout value
  double prior = 0;  // of the rule agent's priors
  // Whether anything is mixed in.
  bool any() const { return value > 0 || prior > 0; }
};

// `network` with `heuristic`'s value and priors mixed in by `mix`. `heuristic` is asked only for
// what the mix uses: its priors only when mix.prior > 0, and its value (a rollout) is computed
// whenever it is asked, so build it without a rollout when mix.value is 0.
std::unique_ptr<mcts::Evaluator> mixEvaluators(std::unique_ptr<mcts::Evaluator> network,
                                               std::unique_ptr<mcts::Evaluator> heuristic,
                                               LeafMix mix);

}  // namespace morne::agents
