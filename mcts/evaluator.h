#pragma once
// The interface the search calls to judge positions: a prior over the legal actions and a value.
// The search knows nothing of what is behind it: heuristics (agents/heuristics.h) now, a neural
// network later, a fake in tests.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::mcts {

class Evaluator {
 public:
  virtual ~Evaluator() = default;

  // Returns the value of `s` from blue's point of view in [-1, 1]. When `legal` is not empty
  // (a decision node), also fills `priors` (same size) with probabilities summing to 1.
  // Precondition: `s` is not terminal. Not thread-safe: the search gives each thread its own
  // evaluator.
  virtual double evaluate(const env::GameState& s, std::span<const env::Action> legal,
                          std::span<float> priors) = 0;
};

// Makes the evaluator of one search thread; `seed` differs per thread.
using EvaluatorFactory = std::function<std::unique_ptr<Evaluator>(uint64_t seed)>;

}  // namespace morne::mcts
