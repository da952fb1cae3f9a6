#pragma once
// One search tree that advances a leaf at a time. The caller asks for the next leaf that needs
// an evaluation, evaluates it however it likes, and hands the value back; so one thread can run
// many searches side by side and evaluate their leaves in one batch (the lock-step self-play of
// training/selfplay.h), and mcts::Search runs one per root-parallel thread with a
// synchronous evaluator. mcts/search.h describes the simulation (select, expand, back up).
//
// Root options:
//   - Dirichlet noise (AlphaZero): when `noise_alpha` > 0, the root priors are mixed with
//     Dirichlet(noise_alpha) noise, weight `noise_fraction`, at the start of each decision.
//   - Gumbel root search (Danihelka et al. 2022, "Policy improvement by planning with
//     Gumbel"): when `gumbel`, the root samples the top `gumbel_actions` actions by
//     Gumbel + log prior without replacement (Gumbel noise scaled by `gumbel_scale`; 0 takes
//     the top actions of the prior, for play rather than self-play) and shares the simulations
//     among them by
//     sequential halving, keeping at each halving the half with the best
//     Gumbel + log prior + sigma(Q). Below the root the search is PUCT. The chosen action is
//     the survivor; the policy target is softmax(log prior + sigma(completed Q)), which improves
//     on the prior even with a handful of simulations. sigma(q) = (c_visit + max visits) x
//     c_scale x q, with q mapped from [-1, 1] to [0, 1]; unvisited actions take the mixed
//     value estimate of the paper (appendix D). A Gumbel search starts each decision on a fresh
//     tree, since visits carried over would upset the halving schedule.
//
// Batches of leaves (lc0, KataGo): nextLeaves(k) descends up to k times before any value comes
// back. Each descent marks its path in flight, and a later descent counts every simulation in
// flight through a node as `virtual_loss` visits lost for the side that chose it, so it turns
// to other moves; a descent that still ends on a leaf already gathered ends the batch there.
// With virtual_loss 0 every batch is one leaf, and the search is the one-at-a-time search.

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "env/action.h"
#include "env/game_state.h"
#include "env/rng.h"
#include "env/rules.h"
#include "mcts/evaluator.h"
#include "mcts/search_params.h"
#include "mcts/tree.h"

namespace morne::mcts {

// The value of a finished game from blue's point of view: +1 win, -1 loss, 0 draw; a win by a
// larger victory level is worth a little more (0.85 minor .. 1.0 total).
double terminalValue(const env::GameState& s);

class TreeSearch {
 public:
  TreeSearch(const SearchParams& params, uint64_t seed);

  using Clock = std::chrono::steady_clock;

  // Starts a decision at `root` with a budget of `simulations`: re-roots the kept tree when
  // allowed and possible, else starts a fresh one. `root_noise` false leaves out the Dirichlet
  // noise (self-play's cheap searches, which are not recorded). A `deadline` other than the
  // default also ends the decision once the clock passes it (after at least one simulation).
  // Precondition: `root` is a decision node.
  void begin(const env::GameState& root, int simulations, bool root_noise = true,
             Clock::time_point deadline = {});

  // Runs simulations until one reaches a leaf that needs an evaluation and returns it (valid
  // until complete()), or returns nullptr once the budget is spent or the deadline passed.
  // Simulations that end at a terminal state complete on their own, so a fully expanded tree
  // still returns here within one simulation of the deadline.
  const LeafRequest* next();

  // Completes the pending leaf: `value` is its value from blue's point of view, the priors are
  // those written into the request. Precondition: next() returned a leaf not yet completed.
  void complete(double value);

  // Up to `most` distinct leaves that need an evaluation (valid until completeLeaves()), as
  // "Batches of leaves" above describes; empty once the budget is spent or the deadline passed.
  // A Gumbel root search returns one at a time.
  std::span<const LeafRequest* const> nextLeaves(int most);

  // Completes the leaves of the last nextLeaves(), in their order: values[i] (blue's point of
  // view) is the value of the i-th. Precondition: values has one value per leaf.
  void completeLeaves(std::span<const double> values);

  int simulations() const { return simulations_; }
  const Tree& tree() const { return tree_; }
  const SearchParams& params() const { return params_; }

  // Gumbel root search only: the action chosen and the improved policy over the root's children
  // (in their order). Precondition: the budget is spent and the root was expanded.
  int gumbelChoice() const;
  std::vector<double> improvedPolicy() const;

 private:
  // A leaf gathered for evaluation: the simulation's state and path, and the request.
  struct PendingLeaf {
    env::GameState state;
    std::vector<int> path;
    LeafRequest request;
    env::ActionList legal;
    env::ChanceList outcomes;
    std::vector<float> priors;
  };
  enum class Descent { kLeaf, kTerminal, kCollision };

  Descent descend(PendingLeaf& leaf);
  void markInFlight(const std::vector<int>& path, int change);
  int selectChild(int node) const;
  void expand(const PendingLeaf& leaf);
  void backUp(const std::vector<int>& path, double value);
  void prepareRoot();
  int nextGumbelAction();
  std::vector<double> sigmaQ() const;
  std::vector<double> completedQ() const;

  SearchParams params_;
  env::Rng rng_;
  Tree tree_;
  int budget_ = 0;
  int simulations_ = 0;
  Clock::time_point deadline_{};  // the epoch: none

  std::vector<PendingLeaf> leaves_;  // slots; the first `pending_` wait for their values
  int pending_ = 0;
  std::vector<const LeafRequest*> requests_;
  std::vector<float> noisy_priors_;

  bool root_ready_ = false;  // noise applied / Gumbel set up for this decision
  bool root_noise_ = true;
  double root_eval_ = 0;  // the evaluator's value of the root, side to move
  // Gumbel root: base score (Gumbel + log prior) per root child, the surviving children, and
  // the halving schedule.
  std::vector<double> gumbel_base_;
  std::vector<int> survivors_;
  int visits_per_survivor_ = 0;
  int schedule_cursor_ = 0;
};

}  // namespace morne::mcts
