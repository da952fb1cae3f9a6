#include "mcts/search_result.h"

#include "mcts/tree_search.h"

namespace morne::mcts {

SearchResult summarizeSearch(const env::GameState& root, std::span<const TreeSearch* const> trees) {
  // The children of every tree are the legal actions in canonical order.
  SearchResult r;
  const Tree& first = trees[0]->tree();
  const Node& root0 = first.node(0);
  const double sign = root.side == 0 ? 1.0 : -1.0;
  double visits = 0, sum = 0;
  int child_visits = 0;
  for (int k = 0; k < root0.num_children; ++k) {
    RootChild c;
    c.action = first.node(root0.first_child + k).action;
    c.prior = first.node(root0.first_child + k).prior;
    double value_sum = 0;
    for (const TreeSearch* t : trees) {
      const Node& top = t->tree().node(0);
      if (top.first_child < 0) continue;
      const Node& child = t->tree().node(top.first_child + k);
      c.visits += child.visits;
      value_sum += child.value_sum;
    }
    c.value = c.visits ? sign * value_sum / c.visits : 0;
    child_visits += c.visits;
    r.children.push_back(c);
  }
  for (const TreeSearch* t : trees) {
    visits += t->tree().node(0).visits;
    sum += t->tree().node(0).value_sum;
    r.simulations += t->simulations();
    r.nodes += t->tree().size();
  }
  r.root_value = visits > 0 ? sign * sum / visits : 0;
  int best = 0;
  if (trees[0]->params().gumbel && trees.size() == 1 && !r.children.empty()) {
    best = trees[0]->gumbelChoice();
    const std::vector<double> improved = trees[0]->improvedPolicy();
    for (size_t k = 0; k < r.children.size(); ++k) r.children[k].policy = improved[k];
    r.sampled = trees[0]->params().gumbel_scale > 0;
  } else {
    for (size_t k = 0; k < r.children.size(); ++k) {
      RootChild& c = r.children[k];
      c.policy = child_visits ? static_cast<double>(c.visits) / child_visits : 0;
      const RootChild& b = r.children[static_cast<size_t>(best)];
      if (c.visits > b.visits || (c.visits == b.visits && c.prior > b.prior))
        best = static_cast<int>(k);
    }
  }
  r.best = r.children.empty() ? env::Action::end() : r.children[static_cast<size_t>(best)].action;

  // Principal variation in the first tree: the chosen action, then the most visited edges.
  for (int node = 0, depth = 0; depth < 32; ++depth) {
    const Node& n = first.node(node);
    if (n.first_child < 0 || n.kind == NodeKind::kTerminal) break;
    int next = n.first_child + (depth == 0 ? best : 0);
    for (int k = 0; depth > 0 && k < n.num_children; ++k) {
      if (first.node(n.first_child + k).visits > first.node(next).visits) next = n.first_child + k;
    }
    if (first.node(next).visits == 0) break;
    r.principal_variation.push_back(
        {n.kind == NodeKind::kChance, first.node(next).action, first.node(next).outcome});
    node = next;
  }
  return r;
}

}  // namespace morne::mcts
