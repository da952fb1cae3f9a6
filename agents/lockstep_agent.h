#pragma once
// A search agent driven from outside, one leaf at a time: the lock-step form of a search kind
// (agents/agent_kinds.h, BatchedSearch). One thread keeps many games' decisions going side by
// side and evaluates their leaves in one batch (training/selfplay.h); the agent decides exactly
// as SearchAgent does with one search thread: agent actions only, nothing searched when there
// is one, the most visited (or Gumbel-chosen) action.
//
//   agent.begin(s, sims, noise);
//   while (const mcts::LeafRequest* leaf = agent.next()) agent.complete(value_of(*leaf));
//   Decision d = agent.decision();

#include <cstdint>
#include <optional>

#include "agents/agent.h"
#include "env/action.h"
#include "env/game_state.h"
#include "mcts/tree_search.h"

namespace morne::agents {

class LockstepSearchAgent {
 public:
  LockstepSearchAgent(const mcts::SearchParams& params, uint64_t seed);

  // Starts the decision at `s` (a decision node, which must outlive the decision) with
  // `simulations`; `noise`: with the root noise of the search parameters.
  void begin(const env::GameState& s, int simulations, bool noise);

  // The next leaf to evaluate, valid until complete(); null once the decision is made.
  const mcts::LeafRequest* next();

  // The value of the leaf next() returned, blue's point of view.
  void complete(double value);

  // The decision, once next() has returned null.
  Decision decision() const;

  const mcts::SearchParams& params() const { return search_.params(); }

 private:
  mcts::TreeSearch search_;
  const env::GameState* root_ = nullptr;
  std::optional<env::Action> only_;  // the one agent action, when there is nothing to search
  env::ActionList legal_;
};

}  // namespace morne::agents
