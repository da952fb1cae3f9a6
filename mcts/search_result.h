#pragma once
// What a search reports about its decision: the chosen action, the root's children with their
// visits, values and priors (and the policy target), the principal variation; and how the
// root-parallel trees of a search are summed into it.

#include <cstddef>
#include <span>
#include <vector>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::mcts {

class TreeSearch;

// One step of a principal variation: an action, or a chance outcome.
struct LineStep {
  bool chance = false;
  env::Action action;
  int outcome = 0;
};

struct RootChild {
  env::Action action;
  int visits = 0;
  double value = 0;  // mean value for the side to move
  float prior = 0;
  double policy = 0;  // the training target: share of the visits, or the Gumbel improved policy
};

struct SearchResult {
  env::Action best;
  int simulations = 0;
  double seconds = 0;
  double root_value = 0;            // for the side to move
  std::vector<RootChild> children;  // the legal actions, in canonical order
  std::vector<LineStep> principal_variation;
  size_t nodes = 0;      // nodes in the trees after the search
  bool sampled = false;  // `best` was drawn at random (Gumbel noise): play it as it is
};

// Sums the statistics of root-parallel trees that searched `root` (one tree for a Gumbel
// search, whose choice and improved policy it reports).
SearchResult summarizeSearch(const env::GameState& root, std::span<const TreeSearch* const> trees);

}  // namespace morne::mcts
