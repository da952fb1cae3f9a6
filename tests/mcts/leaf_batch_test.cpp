// Batches of leaves (mcts/tree_search.h): without virtual loss a batched search is the
// one-at-a-time search, visit for visit; with it a batch gathers distinct leaves, spends exactly
// its budget and leaves no simulation in flight; mcts::Search hands the evaluator whole batches.

#include <gtest/gtest.h>

#include <set>

#include "mcts/search.h"
#include "mcts/tree_search.h"
#include "tests/mcts/positions.h"

namespace morne::test {
namespace {

// HashEvaluator that counts the batches it is handed and their sizes.
class CountingEvaluator : public HashEvaluator {
 public:
  void evaluateBatch(std::span<const mcts::LeafRequest* const> leaves,
                     std::span<double> values) override {
    ++batches;
    largest = std::max(largest, leaves.size());
    mcts::Evaluator::evaluateBatch(leaves, values);
  }
  int batches = 0;
  size_t largest = 0;
};

// Runs `t` on `s` for `simulations` in batches of up to `batch` leaves; returns the largest
// batch gathered.
size_t searchInBatches(mcts::TreeSearch& t, const env::GameState& s, int simulations, int batch) {
  CountingEvaluator eval;
  std::vector<double> values;
  size_t largest = 0;
  t.begin(s, simulations);
  for (;;) {
    const auto leaves = t.nextLeaves(batch);
    if (leaves.empty()) break;
    largest = std::max(largest, leaves.size());
    std::set<uint64_t> hashes;
    for (const mcts::LeafRequest* leaf : leaves) hashes.insert(leaf->state->hash);
    EXPECT_EQ(hashes.size(), leaves.size()) << "a batch holds each leaf once";
    values.resize(leaves.size());
    eval.evaluateBatch(leaves, values);
    t.completeLeaves(values);
  }
  return largest;
}

void expectNothingInFlight(const mcts::Tree& tree) {
  for (size_t i = 0; i < tree.size(); ++i)
    EXPECT_EQ(tree.node(static_cast<int>(i)).in_flight, 0) << "node " << i;
}

std::vector<int> rootVisits(const mcts::Tree& tree) {
  std::vector<int> visits;
  const mcts::Node& root = tree.node(0);
  for (int k = 0; k < root.num_children; ++k)
    visits.push_back(tree.node(root.first_child + k).visits);
  return visits;
}

TEST(LeafBatches, WithoutVirtualLossABatchedSearchIsTheOneAtATimeSearch) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  mcts::SearchParams p;
  mcts::TreeSearch single(p, 5);
  CountingEvaluator eval;
  single.begin(s, 400);
  while (const mcts::LeafRequest* leaf = single.next())
    single.complete(eval.evaluate(*leaf->state, leaf->legal, leaf->priors));

  p.virtual_loss = 0;
  mcts::TreeSearch batched(p, 5);
  EXPECT_EQ(searchInBatches(batched, s, 400, 8), 1u)
      << "without virtual loss the second descent meets the first's leaf";
  EXPECT_EQ(batched.simulations(), 400);
  EXPECT_EQ(rootVisits(batched.tree()), rootVisits(single.tree()));
  ASSERT_EQ(batched.tree().size(), single.tree().size());
  for (size_t i = 0; i < single.tree().size(); ++i) {
    const int n = static_cast<int>(i);
    EXPECT_EQ(batched.tree().node(n).visits, single.tree().node(n).visits) << "node " << i;
    EXPECT_DOUBLE_EQ(batched.tree().node(n).value_sum, single.tree().node(n).value_sum);
  }
}

TEST(LeafBatches, VirtualLossGathersDistinctLeavesAndSpendsTheBudgetExactly) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  mcts::SearchParams p;
  p.virtual_loss = 1;
  mcts::TreeSearch t(p, 5);
  EXPECT_GT(searchInBatches(t, s, 403, 8), 1u);
  EXPECT_EQ(t.simulations(), 403);
  EXPECT_EQ(t.tree().node(0).visits, 403);
  expectNothingInFlight(t.tree());
  // The next decision re-roots the kept tree and searches on from it.
  EXPECT_GT(searchInBatches(t, s, 100, 8), 1u);
  EXPECT_EQ(t.simulations(), 100);
}

TEST(LeafBatches, AnAbandonedBatchLeavesNothingInFlight) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  mcts::SearchParams p;
  p.reuse_tree = true;
  mcts::TreeSearch t(p, 5);
  searchInBatches(t, s, 50, 4);
  t.begin(s, 50);
  ASSERT_FALSE(t.nextLeaves(4).empty());
  t.begin(s, 50);  // a new decision before the batch came back
  expectNothingInFlight(t.tree());
}

TEST(LeafBatches, TheSearchHandsItsEvaluatorWholeBatches) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  mcts::SearchParams p;
  p.simulations = 300;
  p.batch = 8;
  CountingEvaluator* seen = nullptr;
  mcts::Search search(
      p,
      [&seen](uint64_t) {
        auto e = std::make_unique<CountingEvaluator>();
        seen = e.get();
        return e;
      },
      3);
  const mcts::SearchResult r = search.run(s);
  EXPECT_EQ(r.simulations, 300);
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ(seen->largest, 8u);
  EXPECT_LT(seen->batches, 300 / 2) << "most batches are full";
}

TEST(LeafBatches, AGumbelRootGathersOneLeafAtATime) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  mcts::SearchParams p;
  p.gumbel = true;
  mcts::TreeSearch t(p, 5);
  EXPECT_EQ(searchInBatches(t, s, 64, 8), 1u);
  EXPECT_EQ(t.simulations(), 64);
}

}  // namespace
}  // namespace morne::test
