// The search on its own (mcts/search.h), with an evaluator that knows nothing (uniform priors,
// value 0), so that only the search and the exact chance nodes can find the right action:
// small tactical positions built for the purpose, chance-node probabilities, bounded memory,
// tree reuse and determinism.

#include "mcts/search.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <future>
#include <iostream>
#include <thread>

#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "mcts/tree_search.h"
#include "tests/env/test_map.h"
#include "tests/mcts/positions.h"

namespace morne::test {
namespace {

using env::Hex;

class UniformEvaluator : public mcts::Evaluator {
 public:
  double evaluate(const env::GameState&, std::span<const env::Action>,
                  std::span<float> priors) override {
    for (float& p : priors) p = 1.0f / static_cast<float>(priors.size());
    return 0;
  }
};

mcts::Search uniformSearch(int simulations, int threads = 1, size_t max_nodes = size_t{1} << 20) {
  mcts::SearchParams p;
  p.simulations = simulations;
  p.threads = threads;
  p.max_nodes = max_nodes;
  return mcts::Search(
      p, [](uint64_t) { return std::make_unique<UniformEvaluator>(); }, 1);
}

env::Action attackAction(const env::GameState& s, const std::string& attacker,
                         const std::string& defender) {
  const env::Scenario& sc = s.sc();
  const env::CellId from = s.unit(unitOf(sc, attacker)).cell;
  const env::CellId to = s.unit(unitOf(sc, defender)).cell;
  return env::Action::attack(from, *env::directionBetween(sc.hexOf(from), sc.hexOf(to)));
}

// tests/mcts/positions.h: attacking D with A is the only move that does not lose.
TEST(MctsTactics, FindsTheForcedElimination) {
  const Position p = forcedElimination();
  const env::GameState& s = p.state;
  ASSERT_EQ(env::gameResult(s).winner, 0);

  mcts::Search search = uniformSearch(3000);
  const mcts::SearchResult r = search.run(s);
  EXPECT_EQ(r.best, attackAction(s, "A", "D"));
  for (const mcts::RootChild& c : r.children) {
    if (c.action == attackAction(s, "A", "D")) {
      EXPECT_GT(c.value, -0.05);  // no loss: a draw, or a win when A advances onto the objective
    } else {
      EXPECT_LT(c.value, -0.7) << "ending or attacking F loses";
    }
  }
}

// Orange's last movement phase: A (VC 2) touches blue's D (VC 2, MO 1) on the objective, which
// both sides value. At 1:1 A alone dislodges D less often than at 3:1, which B (VC 4), two
// hexes away, brings by stepping next to D (it then supports A, or attacks with A's support).
// The decisive move is B's step next to D.
TEST(MctsTactics, FindsTheDecisiveSupport) {
  TestMap m;
  m.turns(1)
      .unit({.id = "A", .side = 1, .at = {0, 0}, .vc = 2})
      .unit({.id = "B", .side = 1, .at = {2, -2}, .vc = 4})
      .unit({.id = "D", .side = 0, .at = {1, 0}, .vc = 2, .mo = 1})
      .objective({1, 0}, false, 1, 1);
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 1);
  ASSERT_EQ(sc->distance(s.unit(unitOf(*sc, "B")).cell, s.unit(unitOf(*sc, "D")).cell), 2);

  mcts::Search search = uniformSearch(6000);
  const mcts::SearchResult r = search.run(s);
  env::GameState after = s;
  env::applyAction(after, r.best);
  EXPECT_EQ(r.best.kind, env::ActionKind::kMove);
  EXPECT_EQ(
      after.sc().distance(after.unit(unitOf(*sc, "B")).cell, after.unit(unitOf(*sc, "D")).cell), 1)
      << "B must step next to D";
}

// Chance nodes carry the exact probabilities of their outcomes, and the visits below them follow
// those probabilities (stratified: never more than one visit away from probability x visits).
TEST(MctsChance, OutcomesExpandedWithTheirProbabilities) {
  TestMap m;
  m.turns(2)
      .unit({.id = "A", .side = 0, .at = {0, 0}, .vc = 3, .mo = 4})
      .unit({.id = "D", .side = 1, .at = {1, 0}, .vc = 3, .mo = 4});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  mcts::Search search = uniformSearch(2000);
  search.run(s);
  const mcts::Tree& t = search.tree(0);
  const mcts::Node& root = t.node(0);
  int checked = 0;
  for (int k = 0; k < root.num_children; ++k) {
    const mcts::Node& child = t.node(root.first_child + k);
    if (child.action.kind != env::ActionKind::kAttack) continue;
    ASSERT_EQ(child.kind, mcts::NodeKind::kChance);
    env::GameState x = s;
    env::applyAction(x, child.action);
    env::ChanceList outcomes;
    env::chanceOutcomes(x, outcomes);
    ASSERT_EQ(child.num_children, static_cast<int>(outcomes.size()));
    int below = 0;
    for (int j = 0; j < child.num_children; ++j) below += t.node(child.first_child + j).visits;
    for (int j = 0; j < child.num_children; ++j) {
      const mcts::Node& o = t.node(child.first_child + j);
      EXPECT_EQ(o.outcome, outcomes[static_cast<size_t>(j)].value);
      EXPECT_FLOAT_EQ(o.prior, static_cast<float>(outcomes[static_cast<size_t>(j)].probability()));
      EXPECT_LE(std::abs(o.visits - static_cast<double>(o.prior) * below), 1.0)
          << "outcome " << int{o.outcome};
    }
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

TEST(MctsMemory, TreeNeverExceedsItsNodeBudget) {
  TestMap m;
  m.turns(3)
      .unit({.id = "A", .side = 0, .at = {0, 0}, .vc = 3})
      .unit({.id = "B", .side = 0, .at = {0, 1}, .vc = 3})
      .unit({.id = "D", .side = 1, .at = {3, 0}, .vc = 3});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  mcts::Search search = uniformSearch(20000, 1, 5000);
  const mcts::SearchResult r = search.run(s);
  EXPECT_EQ(r.simulations, 20000);
  EXPECT_LE(search.tree(0).size(), 5000u);
  EXPECT_TRUE(env::isLegal(s, r.best));
}

TEST(MctsReuse, NextDecisionStartsFromTheKeptSubtree) {
  TestMap m;
  m.turns(3)
      .unit({.id = "A", .side = 0, .at = {0, 0}, .vc = 3})
      .unit({.id = "D", .side = 1, .at = {3, 0}, .vc = 3});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  mcts::Search search = uniformSearch(2000);
  const mcts::SearchResult first = search.run(s);
  env::GameState next = s;
  env::applyAction(next, first.best);
  mcts::Tree kept = search.tree(0);
  ASSERT_TRUE(kept.reuse(next));
  EXPECT_GT(kept.node(0).visits, 0);
  EXPECT_EQ(kept.rootState().hash, next.hash);
}

TEST(MctsDeterminism, SameSeedAndBudgetSameResult) {
  TestMap m;
  m.turns(2)
      .unit({.id = "A", .side = 0, .at = {0, 0}, .vc = 3})
      .unit({.id = "B", .side = 0, .at = {0, 1}, .vc = 2})
      .unit({.id = "D", .side = 1, .at = {2, 0}, .vc = 3});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  for (int threads : {1, 2}) {
    mcts::Search a = uniformSearch(3000, threads);
    mcts::Search b = uniformSearch(3000, threads);
    const mcts::SearchResult ra = a.run(s), rb = b.run(s);
    EXPECT_EQ(ra.best, rb.best);
    ASSERT_EQ(ra.children.size(), rb.children.size());
    for (size_t k = 0; k < ra.children.size(); ++k)
      EXPECT_EQ(ra.children[k].visits, rb.children[k].visits);
    EXPECT_EQ(ra.simulations, 3000);
  }
}

// Runs `f` on its own thread; a call that has not returned within `limit` is a hang, which
// ends the test binary at once (the thread cannot be stopped).
template <typename F>
auto finishesWithin(std::chrono::seconds limit, F f) {
  auto result = std::async(std::launch::async, f);
  if (result.wait_for(limit) != std::future_status::ready) {
    std::cerr << "hang: the search did not return within " << limit.count() << " s\n";
    std::_Exit(1);
  }
  return result.get();
}

// Regression: a search with a time budget on a fully expanded tree (every simulation ends at a
// terminal state, so none asks for an evaluation) never checked the clock and spun forever.
TEST(MctsTimeBudget, ReturnsWhenTheWholeTreeIsExpanded) {
  const Position p = forcedElimination();
  for (int threads : {1, 2}) {
    mcts::SearchParams params;
    params.milliseconds = 50;
    params.threads = threads;
    mcts::Search search(
        params, [](uint64_t) { return std::make_unique<UniformEvaluator>(); }, 1);
    const auto t0 = std::chrono::steady_clock::now();
    const mcts::SearchResult r =
        finishesWithin(std::chrono::seconds(20), [&] { return search.run(p.state); });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(seconds, 5.0);
    EXPECT_GT(r.simulations, 16) << "the search ran until the deadline";
    EXPECT_TRUE(env::isLegal(p.state, r.best));
  }
}

// The same through the stepped search: next() gives up at the deadline although the budget in
// simulations is not spent.
TEST(MctsTimeBudget, SteppedSearchStopsAtTheDeadline) {
  const Position p = forcedElimination();
  mcts::TreeSearch tree(mcts::SearchParams{}, 1);
  UniformEvaluator evaluator;
  tree.begin(p.state, 1'000'000'000, true,
             mcts::TreeSearch::Clock::now() + std::chrono::milliseconds(20));
  finishesWithin(std::chrono::seconds(20), [&] {
    while (const mcts::LeafRequest* leaf = tree.next())
      tree.complete(evaluator.evaluate(*leaf->state, leaf->legal, leaf->priors));
    return 0;
  });
  EXPECT_LT(tree.simulations(), 1'000'000'000);
  EXPECT_GT(tree.simulations(), 16);
}

// Regression: the clock was read every 16 simulations, so slow simulations (a sanitizer's build
// ran 150 ms each) carried a capped search seconds past its deadline. With 20 ms evaluations and
// a 50 ms deadline, the search stops within a simulation of it.
TEST(MctsTimeBudget, SlowSimulationsStopWithinOneOfTheDeadline) {
  struct SlowEvaluator : UniformEvaluator {
    double evaluate(const env::GameState& s, std::span<const env::Action> legal,
                    std::span<float> priors) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return UniformEvaluator::evaluate(s, legal, priors);
    }
  };
  const auto sc = env::loadScenario("crossing");
  mcts::TreeSearch tree(mcts::SearchParams{}, 1);
  SlowEvaluator evaluator;
  tree.begin(env::newGame(*sc), 1'000'000, true,
             mcts::TreeSearch::Clock::now() + std::chrono::milliseconds(50));
  finishesWithin(std::chrono::seconds(20), [&] {
    while (const mcts::LeafRequest* leaf = tree.next())
      tree.complete(evaluator.evaluate(*leaf->state, leaf->legal, leaf->priors));
    return 0;
  });
  EXPECT_LE(tree.simulations(), 5) << "simulations of 20 ms against a 50 ms deadline";
}

}  // namespace
}  // namespace morne::test
