// The resumable search (mcts/tree_search.h) and its root options: driving a TreeSearch leaf by
// leaf gives exactly the synchronous search; Dirichlet noise and Gumbel variables are seeded and
// well formed; the Gumbel root search spends its budget by sequential halving, finds a forced
// win with few simulations and reports an improved policy that sums to one.

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "env/rules.h"
#include "mcts/root_noise.h"
#include "mcts/search.h"
#include "mcts/tree_search.h"
#include "tests/mcts/positions.h"

namespace morne::test {
namespace {

// Runs `t` on `s` for `simulations`, evaluating its leaves one by one with `HashEvaluator`.
void searchToTheEnd(mcts::TreeSearch& t, const env::GameState& s, int simulations,
                    bool root_noise = true) {
  HashEvaluator eval;
  t.begin(s, simulations, root_noise);
  while (const mcts::LeafRequest* leaf = t.next()) {
    t.complete(eval.evaluate(*leaf->state, leaf->legal, leaf->priors));
  }
}

TEST(TreeSearch, SteppedEqualsSynchronous) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  mcts::SearchParams p;
  p.simulations = 500;
  mcts::Search search(
      p, [](uint64_t) { return std::make_unique<HashEvaluator>(); }, 3);
  const mcts::SearchResult sync = search.run(s);

  mcts::TreeSearch stepped(p, 99);
  HashEvaluator eval;
  stepped.begin(s, 500);
  int leaves = 0;
  while (const mcts::LeafRequest* leaf = stepped.next()) {
    stepped.complete(eval.evaluate(*leaf->state, leaf->legal, leaf->priors));
    ++leaves;
  }
  EXPECT_EQ(stepped.simulations(), 500);
  EXPECT_GT(leaves, 0);
  const mcts::TreeSearch* trees[] = {&stepped};
  const mcts::SearchResult r = mcts::summarizeSearch(s, trees);
  ASSERT_EQ(r.children.size(), sync.children.size());
  for (size_t k = 0; k < r.children.size(); ++k) {
    EXPECT_EQ(r.children[k].visits, sync.children[k].visits);
    EXPECT_DOUBLE_EQ(r.children[k].value, sync.children[k].value);
  }
  double total = 0;
  for (const mcts::RootChild& c : r.children) total += c.policy;
  EXPECT_NEAR(total, 1.0, 1e-9);
  EXPECT_EQ(r.best, sync.best);
}

TEST(RootNoise, GammaAndGumbelHaveTheirMeans) {
  env::Rng rng(11);
  for (double shape : {0.03, 0.3, 1.0, 4.0}) {
    double sum = 0;
    for (int i = 0; i < 20000; ++i) sum += mcts::sampleGamma(rng, shape);
    EXPECT_NEAR(sum / 20000, shape, 0.05 * shape + 0.005) << "shape " << shape;
  }
  double sum = 0;
  for (int i = 0; i < 20000; ++i) sum += mcts::sampleGumbel(rng);
  EXPECT_NEAR(sum / 20000, 0.5772, 0.03);  // Euler-Mascheroni
}

TEST(RootNoise, DirichletMixKeepsADistributionAndFollowsTheSeed) {
  std::vector<float> a(20, 0.05f), b(20, 0.05f);
  env::Rng ra(5), rb(5);
  mcts::mixDirichletNoise(ra, 0.3, 0.25, a);
  mcts::mixDirichletNoise(rb, 0.3, 0.25, b);
  EXPECT_EQ(a, b);
  EXPECT_NEAR(std::accumulate(a.begin(), a.end(), 0.0), 1.0, 1e-5);
  EXPECT_NE(a, std::vector<float>(20, 0.05f));
  for (float p : a) EXPECT_GE(p, 0.05f * 0.75f - 1e-6f);
}

TEST(TreeSearch, NoiseChangesTheRootPriorsOnly) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  mcts::SearchParams p;
  p.noise_alpha = 0.3;
  mcts::TreeSearch t(p, 7);
  searchToTheEnd(t, s, 200);
  const mcts::Node& root = t.tree().node(0);
  double total = 0;
  bool changed = false;
  for (int k = 0; k < root.num_children; ++k) {
    const float prior = t.tree().node(root.first_child + k).prior;
    total += prior;
    changed |= std::abs(prior - 1.0f / root.num_children) > 1e-4f;
  }
  EXPECT_NEAR(total, 1.0, 1e-4);
  EXPECT_TRUE(changed);

  mcts::TreeSearch quiet(p, 7);  // a search begun without root noise keeps the priors
  searchToTheEnd(quiet, s, 200, false);
  const mcts::Node& quiet_root = quiet.tree().node(0);
  for (int k = 0; k < quiet_root.num_children; ++k) {
    EXPECT_FLOAT_EQ(quiet.tree().node(quiet_root.first_child + k).prior,
                    1.0f / quiet_root.num_children);
  }
}

TEST(GumbelSearch, SpendsTheBudgetBySequentialHalving) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  env::ActionList legal;
  env::legalActions(s, legal);
  ASSERT_GE(legal.size(), 8u);
  mcts::SearchParams p;
  p.gumbel = true;
  p.gumbel_actions = 4;
  mcts::TreeSearch t(p, 21);
  searchToTheEnd(t, s, 16);
  // 1 simulation expands the root; 15 left over 2 phases of 4 actions: 1 visit each; then 11
  // over the 2 survivors: 5 each; the last simulation goes to the final survivor.
  const mcts::TreeSearch* trees[] = {&t};
  const mcts::SearchResult r = mcts::summarizeSearch(s, trees);
  std::vector<int> visits;
  int total = 0;
  for (const mcts::RootChild& c : r.children) {
    if (c.visits) visits.push_back(c.visits);
    total += c.visits;
  }
  std::sort(visits.begin(), visits.end());
  EXPECT_EQ(total, 15);
  EXPECT_EQ(visits, (std::vector<int>{1, 1, 6, 7}));
  EXPECT_TRUE(r.sampled);
  int most = 0;
  for (const mcts::RootChild& c : r.children) most = std::max(most, c.visits);
  double policy = 0;
  for (const mcts::RootChild& c : r.children) {
    policy += c.policy;
    if (c.action == r.best) {
      EXPECT_EQ(c.visits, most);
    }
  }
  EXPECT_NEAR(policy, 1.0, 1e-9);
}

TEST(GumbelSearch, WithoutNoiseTheChoiceIsTheSameForEverySeed) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = skirmishStart(sc);
  std::vector<env::Action> choices;
  for (uint64_t seed = 0; seed < 5; ++seed) {
    mcts::SearchParams p;
    p.gumbel = true;
    p.gumbel_scale = 0;
    p.gumbel_actions = 8;
    p.simulations = 48;
    mcts::Search search(
        p, [](uint64_t) { return std::make_unique<HashEvaluator>(); }, seed);
    const mcts::SearchResult r = search.run(s);
    EXPECT_FALSE(r.sampled);
    choices.push_back(r.best);
  }
  for (const env::Action& a : choices) EXPECT_EQ(a, choices[0]);
}

TEST(GumbelSearch, FindsTheForcedWinWithFewSimulations) {
  const Position p = forcedElimination();
  const env::GameState& s = p.state;
  const env::Scenario& sc = *p.scenario;
  env::ActionList legal;
  env::legalActions(s, legal);
  const env::Action win = env::Action::attack(
      s.unit(unitOf(sc, "A")).cell, *env::directionBetween(sc.hexOf(s.unit(unitOf(sc, "A")).cell),
                                                           sc.hexOf(s.unit(unitOf(sc, "D")).cell)));
  int found = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    mcts::SearchParams params;
    params.gumbel = true;
    params.simulations = static_cast<int>(legal.size()) * 8;
    mcts::Search search(
        params, [](uint64_t) { return std::make_unique<HashEvaluator>(); }, seed);
    const mcts::SearchResult r = search.run(s);
    found += r.best == win;
    for (const mcts::RootChild& c : r.children) {
      if (c.action == win) {
        EXPECT_GT(c.policy, 0.5) << "the improved policy favours the win";
      }
    }
  }
  EXPECT_EQ(found, 20);
}

}  // namespace
}  // namespace morne::test
