#include "mcts/search.h"

#include <chrono>
#include <climits>

#include "env/rules.h"
#include "mcts/tree_search.h"
#include "mcts/workers.h"

namespace morne::mcts {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

double terminalValue(const env::GameState& s) {
  const env::GameResult r = env::gameResult(s);
  if (r.winner == env::kNoSide) return 0;
  const double magnitude = 0.8 + 0.05 * r.level;
  return r.winner == 0 ? magnitude : -magnitude;
}

struct Search::Worker {
  Worker(const SearchParams& params, uint64_t seed, std::unique_ptr<Evaluator> e)
      : tree(params, seed), evaluator(std::move(e)) {}
  TreeSearch tree;
  std::unique_ptr<Evaluator> evaluator;
};

Search::Search(SearchParams params, EvaluatorFactory factory, uint64_t seed) : params_(params) {
  if (params_.threads < 1) params_.threads = 1;
  workers_.reserve(static_cast<size_t>(params_.threads));
  for (int t = 0; t < params_.threads; ++t) {
    const uint64_t thread_seed = seed + static_cast<uint64_t>(t);
    workers_.emplace_back(params_, thread_seed ^ 0x7A3B'91C4'55E1'0D2Full, factory(thread_seed));
  }
}

Search::~Search() = default;

const Tree& Search::tree(int t) const { return workers_[static_cast<size_t>(t)].tree.tree(); }

void Search::setBudget(int simulations, double milliseconds, double turn_milliseconds) {
  params_.simulations = simulations;
  params_.milliseconds = milliseconds;
  params_.turn_milliseconds = turn_milliseconds;
}

SearchResult Search::run(const env::GameState& root, double milliseconds) {
  const auto t0 = Clock::now();
  const int threads = static_cast<int>(workers_.size());
  const bool timed = milliseconds > 0;
  const auto deadline = timed ? t0 + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double, std::milli>(milliseconds))
                              : Clock::time_point{};
  auto job = [&](int t) {
    Worker& w = workers_[static_cast<size_t>(t)];
    const int share = params_.simulations / threads + (t < params_.simulations % threads ? 1 : 0);
    w.tree.begin(root, timed ? INT_MAX : std::max(1, share), true, deadline);
    while (const LeafRequest* leaf = w.tree.next()) {
      w.tree.complete(w.evaluator->evaluate(*leaf->state, leaf->legal, leaf->priors));
    }
  };
  runOnWorkers(threads, job);
  std::vector<const TreeSearch*> trees;
  for (const Worker& w : workers_) trees.push_back(&w.tree);
  SearchResult r = summarizeSearch(root, trees);
  r.seconds = since(t0);
  return r;
}

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
