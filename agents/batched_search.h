#pragma once
// A kind's search agents in lock-step form (the "lockstep" column of agents/agent_kinds.h).

#include <functional>
#include <memory>

#include "mcts/evaluator.h"
#include "mcts/search_params.h"

namespace morne::agents {

// What self-play needs to run a kind's search agents in lock-step across many games
// (agents/lockstep_agent.h, training/selfplay.h): their search settings and a maker of batch
// evaluators, one per thread. `make_evaluator(batch)` gives an evaluator that evaluates `batch`
// positions at a time whatever it is handed (padding or splitting; 0: as handed), so that a
// position's value does not depend on which positions shared its batch.
struct BatchedSearch {
  mcts::SearchParams search;
  std::function<std::unique_ptr<mcts::BatchEvaluator>(int batch)> make_evaluator;
};

}  // namespace morne::agents
