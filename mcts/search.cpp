#include "mcts/search.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <cmath>

#include "env/rules.h"

namespace morne::mcts {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

double terminalValue(const env::GameState& s) {
  const env::GameResult r = env::gameResult(s);
  if (r.winner == env::kNoSide) return 0;
  const double magnitude = 0.8 + 0.05 * r.level;
  return r.winner == 0 ? magnitude : -magnitude;
}

struct Search::Worker {
  Worker(size_t max_nodes, std::unique_ptr<Evaluator> e) : tree(max_nodes), evaluator(std::move(e)) {}
  Tree tree;
  std::unique_ptr<Evaluator> evaluator;
  env::ActionList legal;
  env::ChanceList outcomes;
  std::vector<float> priors;
  std::vector<int> path;
  int simulations = 0;
};

Search::Search(SearchParams params, EvaluatorFactory factory, uint64_t seed) : params_(params) {
  if (params_.threads < 1) params_.threads = 1;
  workers_.reserve(static_cast<size_t>(params_.threads));
  for (int t = 0; t < params_.threads; ++t) {
    workers_.emplace_back(params_.max_nodes, factory(seed + static_cast<uint64_t>(t)));
  }
}

Search::~Search() = default;

const Tree& Search::tree(int t) const { return workers_[static_cast<size_t>(t)].tree; }

namespace {

// Step 2: lists the children of `node` (state `s`) and returns its value. When the pool is full
// the node stays a leaf and is evaluated again at each visit: memory stays bounded.
template <typename W>
double expand(W& w, int node, const env::GameState& s) {
  Tree& t = w.tree;
  if (s.isTerminal()) {
    t.node(node).kind = NodeKind::kTerminal;
    t.node(node).hash = s.hash;
    return terminalValue(s);
  }
  if (s.isChanceNode()) {
    env::chanceOutcomes(s, w.outcomes);
    const double value = w.evaluator->evaluate(s, {}, {});
    const int first = t.addChildren(node, static_cast<int>(w.outcomes.size()));
    if (first < 0) return value;
    for (size_t k = 0; k < w.outcomes.size(); ++k) {
      Node& c = t.node(first + static_cast<int>(k));
      c.outcome = static_cast<int8_t>(w.outcomes[k].value);
      c.prior = static_cast<float>(w.outcomes[k].probability());
    }
    t.node(node).kind = NodeKind::kChance;
    t.node(node).hash = s.hash;
    return value;
  }
  env::legalActions(s, w.legal);
  w.priors.assign(w.legal.size(), 0.0f);
  const double value = w.evaluator->evaluate(s, std::span(w.legal.begin(), w.legal.size()), w.priors);
  const int first = t.addChildren(node, static_cast<int>(w.legal.size()));
  if (first < 0) return value;
  for (size_t k = 0; k < w.legal.size(); ++k) {
    Node& c = t.node(first + static_cast<int>(k));
    c.action = w.legal[k];
    c.prior = w.priors[k];
  }
  Node& n = t.node(node);
  n.kind = NodeKind::kDecision;
  n.player = s.side;
  n.hash = s.hash;
  return value;
}

// Step 1 at one node: PUCT at decision nodes, proportional visits at chance nodes.
int selectChild(const Tree& t, int node, const SearchParams& p) {
  const Node& n = t.node(node);
  int best = n.first_child;
  double best_score = -1e300;
  if (n.kind == NodeKind::kChance) {
    for (int k = 0; k < n.num_children; ++k) {
      const Node& c = t.node(n.first_child + k);
      const double score = static_cast<double>(c.prior) * (n.visits + 1) - c.visits;
      if (score > best_score) {
        best_score = score;
        best = n.first_child + k;
      }
    }
    return best;
  }
  const double sign = n.player == 0 ? 1.0 : -1.0;
  const double fpu = sign * n.meanValue() - p.fpu_reduction;
  const double scale = p.cpuct * std::sqrt(std::max(1, n.visits));
  for (int k = 0; k < n.num_children; ++k) {
    const Node& c = t.node(n.first_child + k);
    const double q = c.visits ? sign * c.meanValue() : fpu;
    const double score = q + scale * c.prior / (1 + c.visits);
    if (score > best_score) {
      best_score = score;
      best = n.first_child + k;
    }
  }
  return best;
}

}  // namespace

void Search::simulate(Worker& w) const {
  Tree& t = w.tree;
  env::GameState s = t.rootState();
  int node = 0;
  w.path.assign(1, 0);
  double value = 0;
  for (;;) {
    const Node& n = t.node(node);
    if (n.kind == NodeKind::kUnexpanded || n.first_child < 0) {
      value = expand(w, node, s);
      break;
    }
    if (n.kind == NodeKind::kTerminal) {
      value = n.meanValue();
      break;
    }
    const int child = selectChild(t, node, params_);
    if (n.kind == NodeKind::kChance) {
      env::applyChance(s, t.node(child).outcome);
    } else {
      env::applyAction(s, t.node(child).action);
    }
    node = child;
    w.path.push_back(node);
  }
  for (int i : w.path) {  // step 3
    Node& n = t.node(i);
    ++n.visits;
    n.value_sum += value;
  }
  ++w.simulations;
}

void Search::searchWorker(Worker& w, int simulations, double deadline_seconds) const {
  const auto t0 = Clock::now();
  for (int i = 0;; ++i) {
    if (deadline_seconds > 0) {
      if ((i & 15) == 0 && i > 0 && since(t0) >= deadline_seconds) return;
    } else if (i >= simulations) {
      return;
    }
    simulate(w);
  }
}

SearchResult Search::run(const env::GameState& root) {
  const auto t0 = Clock::now();
  for (Worker& w : workers_) {
    if (!params_.reuse_tree || !w.tree.reuse(root)) w.tree.reset(root);
    w.simulations = 0;
  }
  const int threads = static_cast<int>(workers_.size());
  const double deadline = params_.milliseconds > 0 ? params_.milliseconds / 1000.0 : 0;
  auto job = [&](int t) {
    const int share = params_.simulations / threads + (t < params_.simulations % threads ? 1 : 0);
    searchWorker(workers_[static_cast<size_t>(t)], std::max(1, share), deadline);
  };
  if (threads == 1) {
    job(0);
  } else {
    tbb::task_arena arena(threads);
    arena.execute([&] { tbb::parallel_for(0, threads, job); });
  }

  // Merge the roots: the children of every tree are the legal actions in canonical order.
  SearchResult r;
  const Tree& first = workers_[0].tree;
  const Node& root0 = first.node(0);
  const double sign = root.side == 0 ? 1.0 : -1.0;
  double visits = 0;
  double sum = 0;
  for (int k = 0; k < root0.num_children; ++k) {
    RootChild c;
    c.action = first.node(root0.first_child + k).action;
    c.prior = first.node(root0.first_child + k).prior;
    double value_sum = 0;
    for (const Worker& w : workers_) {
      const Node& top = w.tree.node(0);
      if (top.first_child < 0) continue;
      const Node& child = w.tree.node(top.first_child + k);
      c.visits += child.visits;
      value_sum += child.value_sum;
    }
    c.value = c.visits ? sign * value_sum / c.visits : 0;
    r.children.push_back(c);
  }
  for (const Worker& w : workers_) {
    visits += w.tree.node(0).visits;
    sum += w.tree.node(0).value_sum;
    r.simulations += w.simulations;
    r.nodes += w.tree.size();
  }
  r.root_value = visits > 0 ? sign * sum / visits : 0;
  int best = 0;
  for (size_t k = 1; k < r.children.size(); ++k) {
    const RootChild& c = r.children[k];
    const RootChild& b = r.children[static_cast<size_t>(best)];
    if (c.visits > b.visits || (c.visits == b.visits && c.prior > b.prior)) best = static_cast<int>(k);
  }
  r.best = r.children.empty() ? env::Action::end() : r.children[static_cast<size_t>(best)].action;

  // Principal variation in the first tree: the most visited edge, down to a leaf.
  for (int node = 0, depth = 0; depth < 32; ++depth) {
    const Node& n = first.node(node);
    if (n.first_child < 0 || n.kind == NodeKind::kTerminal) break;
    int next = n.first_child;
    for (int k = 1; k < n.num_children; ++k) {
      if (first.node(n.first_child + k).visits > first.node(next).visits) next = n.first_child + k;
    }
    if (first.node(next).visits == 0) break;
    r.principal_variation.push_back({n.kind == NodeKind::kChance, first.node(next).action, first.node(next).outcome});
    node = next;
  }
  r.seconds = since(t0);
  return r;
}

}  // namespace morne::mcts
