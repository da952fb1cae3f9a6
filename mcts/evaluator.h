#pragma once
// The interfaces the search calls to judge positions: a prior over the legal actions and a
// value. The search knows nothing of what is behind them: heuristics (agents/heuristics.h), a
// neural network (agents/network_agent.h), a fake in tests.
//
//   Evaluator       one position at a time, inside a search thread (mcts/search.h).
//   BatchEvaluator  many leaves at once, gathered from many searches (self-play in lock-step,
//                   training/selfplay.h); mcts/eval_cache.h puts a cache in front of one.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::mcts {

// A leaf waiting for its evaluation.
struct LeafRequest {
  const env::GameState* state = nullptr;  // the leaf: a decision or chance node, never terminal
  std::span<const env::Action> legal;     // its legal actions; empty at a chance node
  std::span<float> priors;                // to fill: one probability per legal action
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;

  // Returns the value of `s` from blue's point of view in [-1, 1]. When `legal` is not empty
  // (a decision node), also fills `priors` (same size) with probabilities summing to 1.
  // Precondition: `s` is not terminal. Not thread-safe: the search gives each thread its own
  // evaluator.
  virtual double evaluate(const env::GameState& s, std::span<const env::Action> legal,
                          std::span<float> priors) = 0;

  // Evaluates several leaves of one search (mcts/tree_search.h, "Batches of leaves"): fills
  // each leaf's priors and writes its value to values[i]. By default one at a time; an
  // evaluator that gains from batches (a network) overrides it.
  virtual void evaluateBatch(std::span<const LeafRequest* const> leaves, std::span<double> values);
};

// Makes the evaluator of one search thread; `seed` differs per thread.
using EvaluatorFactory = std::function<std::unique_ptr<Evaluator>(uint64_t seed)>;

class BatchEvaluator {
 public:
  virtual ~BatchEvaluator() = default;

  // Evaluates every leaf: fills its priors and writes its value (blue's point of view) to
  // values[i]. Not thread-safe: each self-play thread owns one.
  virtual void evaluate(std::span<const LeafRequest* const> leaves, std::span<double> values) = 0;
};

// An Evaluator over `batch`: evaluate() sends its position alone (a batch of one),
// evaluateBatch() hands the search's leaves over as one batch.
std::unique_ptr<Evaluator> evaluateOneByOne(std::unique_ptr<BatchEvaluator> batch);

}  // namespace morne::mcts
