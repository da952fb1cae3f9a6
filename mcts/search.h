#pragma once
// Monte Carlo tree search over the atomic actions of the rules engine, with its explicit chance
// nodes (Silver et al. 2017 for PUCT; chance nodes as in expectimax MCTS, e.g. Lanctot et al.
// 2013, "Monte Carlo *-Minimax Search").
//
// One simulation:
//   1. Select: from the root, descend by PUCT at decision nodes (the side to move maximises its
//      value) and, at chance nodes, to the outcome furthest below its share of the visits
//      (probability x visits), which samples outcomes in proportion to their probability
//      without randomness; replay each edge on a copy of the root state.
//   2. Expand: at the first unexpanded node, list its children (legal actions with the
//      evaluator's priors, or chance outcomes with their exact probabilities) and take the
//      evaluator's value (or the result at a terminal state).
//   3. Back up: add the value (blue's point of view) to every node on the path. A node's mean is
//      then the expectation over dice of the values below it.
//
// Parallelism is root parallel (Cazenave and Jouandeau 2007): each thread grows its own tree
// from the same root with its own evaluator, and the root visits are summed. Threads share
// nothing while searching, so the speed-up is close to linear and the result is deterministic
// for a budget in simulations. Trees are kept between decisions and re-rooted on the next
// position when it is in them (tree reuse); the node pool of each tree is bounded.

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "env/action.h"
#include "env/game_state.h"
#include "mcts/evaluator.h"
#include "mcts/search_params.h"
#include "mcts/search_result.h"
#include "mcts/tree.h"

namespace morne::mcts {

class Search {
 public:
  // `factory` makes each thread's evaluator; `seed` seeds them (thread t gets seed + t).
  Search(SearchParams params, EvaluatorFactory factory, uint64_t seed);
  ~Search();

  // Searches `root` and returns the most visited action with the statistics.
  // Precondition: `root` is a decision node.
  SearchResult run(const env::GameState& root) { return run(root, params_.milliseconds); }
  // The same for `milliseconds` (> 0) of search, or for the simulation budget (0).
  SearchResult run(const env::GameState& root, double milliseconds);

  // Changes the budget of the next runs; the trees are kept.
  void setBudget(int simulations, double milliseconds, double turn_milliseconds);
  // While *stop is true (when `stop` is not null), a run ends after each thread's first
  // simulation and returns the best action found so far: a client's "stop" or a cancel.
  void setStopFlag(const std::atomic<bool>* stop) { stop_ = stop; }
  // A run never lasts longer than `milliseconds` (0: no cap), whatever its budget: a server's
  // limit on a search counted in simulations.
  void setTimeCap(double milliseconds) { cap_ms_ = milliseconds; }

  const SearchParams& params() const { return params_; }

  // The tree of search thread t as the last run left it (for statistics and tests).
  const Tree& tree(int t) const;

 private:
  struct Worker;

  SearchParams params_;
  std::vector<Worker> workers_;
  const std::atomic<bool>* stop_ = nullptr;
  double cap_ms_ = 0;
};

}  // namespace morne::mcts
