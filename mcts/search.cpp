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

struct Search::Worker {
  Worker(const SearchParams& params, uint64_t seed, std::unique_ptr<Evaluator> e)
      : tree(params, seed), evaluator(std::move(e)) {}
  TreeSearch tree;
  std::unique_ptr<Evaluator> evaluator;
  std::vector<double> values;  // of the leaves in evaluation
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
  auto after = [t0](double ms) {
    return t0 + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double, std::milli>(ms));
  };
  // No deadline is Clock::time_point{}; a time budget and a cap each set one, the earlier wins.
  Clock::time_point deadline = timed ? after(milliseconds) : Clock::time_point{};
  if (cap_ms_ > 0 && (!timed || cap_ms_ < milliseconds)) deadline = after(cap_ms_);
  auto job = [&](int t) {
    Worker& w = workers_[static_cast<size_t>(t)];
    const int share = params_.simulations / threads + (t < params_.simulations % threads ? 1 : 0);
    w.tree.begin(root, timed ? INT_MAX : std::max(1, share), true, deadline);
    for (;;) {
      const std::span<const LeafRequest* const> leaves = w.tree.nextLeaves(params_.batch);
      if (leaves.empty()) break;
      w.values.resize(leaves.size());
      w.evaluator->evaluateBatch(leaves, w.values);
      w.tree.completeLeaves(w.values);
      if (stop_ && stop_->load(std::memory_order_relaxed)) break;  // between two batches
    }
  };
  runOnWorkers(threads, job);
  std::vector<const TreeSearch*> trees;
  for (const Worker& w : workers_) trees.push_back(&w.tree);
  SearchResult r = summarizeSearch(root, trees);
  r.seconds = since(t0);
  return r;
}

}  // namespace morne::mcts
