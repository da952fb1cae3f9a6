// The arena's schedule (duplicate pairs on shared dice), its statistics, the Elo fit against
// examples whose answer is known in closed form, and its output folder.

#include "arena/arena.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "arena/arena_folder.h"
#include "arena/elo.h"
#include "arena/stats.h"
#include "env/error.h"
#include "env/io/scenario_library.h"

namespace morne::test {
namespace {

double eloOf(double score) { return 400 * std::log10(score / (1 - score)); }

std::vector<arena::EloGame> games(int blue, int orange, int wins, int draws, int losses) {
  std::vector<arena::EloGame> out;
  for (int i = 0; i < wins; ++i) out.push_back({blue, orange, 1.0});
  for (int i = 0; i < draws; ++i) out.push_back({blue, orange, 0.5});
  for (int i = 0; i < losses; ++i) out.push_back({blue, orange, 0.0});
  return out;
}

TEST(Elo, EvenSidesGiveTheLogisticDifference) {
  // B scores 75% against A with either colour: B is 400 log10(3) = 190.8 Elo above A, no side
  // advantage.
  auto g = games(0, 1, 15, 0, 45);
  const auto more = games(1, 0, 45, 0, 15);
  g.insert(g.end(), more.begin(), more.end());
  const arena::EloFit fit = arena::fitElo(2, g, 0, 0.0);
  ASSERT_TRUE(fit.converged);
  EXPECT_NEAR(fit.rating[1], eloOf(0.75), 1e-6);
  EXPECT_NEAR(fit.side, 0, 1e-6);
  EXPECT_EQ(fit.low[0], 0);
  EXPECT_EQ(fit.high[0], 0);
}

TEST(Elo, SideAdvantageInClosedForm) {
  // A as blue scores 90% (n1 = 50 games) and as orange 60% (n2 = 100). With d = r_A - r_B and h
  // the side term: d + h = elo(0.9), h - d = elo(0.4), so d = (elo(0.9) - elo(0.4)) / 2.
  auto g = games(0, 1, 45, 0, 5);
  const auto more = games(1, 0, 40, 0, 60);
  g.insert(g.end(), more.begin(), more.end());
  const arena::EloFit fit = arena::fitElo(2, g, 1, 0.0);  // anchored on B
  ASSERT_TRUE(fit.converged);
  EXPECT_NEAR(fit.rating[0], (eloOf(0.9) - eloOf(0.4)) / 2, 1e-6);
  EXPECT_NEAR(fit.side, (eloOf(0.9) + eloOf(0.4)) / 2, 1e-6);
  EXPECT_LT(fit.low[0], fit.rating[0]);
  EXPECT_GT(fit.high[0], fit.rating[0]);
  EXPECT_LT(fit.side_low, fit.side);
  EXPECT_GT(fit.side_high, fit.side);
}

// The likelihood-ratio interval of a proportion: the q where 2 n KL(p || q) = 3.84, by
// bisection on one side of p (an implementation independent of the Elo fit's).
double binomialBound(double p, int n, double lo, double hi) {
  auto excess = [&](double q) {
    const double kl =
        (p > 0 ? p * std::log(p / q) : 0) + (p < 1 ? (1 - p) * std::log((1 - p) / (1 - q)) : 0);
    return 2 * n * kl - 3.841458820694124;
  };
  const bool rising = excess(lo) < excess(hi);
  for (int k = 0; k < 200; ++k) {
    const double mid = (lo + hi) / 2;
    ((excess(mid) < 0) == rising ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

TEST(Elo, ProfileIntervalsMatchTheBinomialLikelihoodRatioInterval) {
  // A scores 14 of 20 with each colour. By symmetry the side term is 0 at every fixed rating
  // difference, so the profile likelihood of d is that of 28 successes in 40 trials and the
  // interval is elo() of the binomial likelihood-ratio interval: asymmetric around elo(0.7).
  auto g = games(0, 1, 14, 0, 6);
  const auto more = games(1, 0, 6, 0, 14);
  g.insert(g.end(), more.begin(), more.end());
  const arena::EloFit fit = arena::fitElo(2, g, 1, 0.0);
  ASSERT_TRUE(fit.converged);
  EXPECT_NEAR(fit.rating[0], eloOf(0.7), 1e-6);
  EXPECT_NEAR(fit.low[0], eloOf(binomialBound(0.7, 40, 1e-9, 0.7)), 0.05);
  EXPECT_NEAR(fit.high[0], eloOf(binomialBound(0.7, 40, 0.7, 1 - 1e-9)), 0.05);
  EXPECT_GT(fit.high[0] - fit.rating[0], fit.rating[0] - fit.low[0]);  // logit stretches up
}

TEST(Elo, OneSidedRecordGivesAnOpenEndedInterval) {
  // A wins all 20 games (10 as each colour). Without the prior the maximum is at infinity; with
  // one virtual draw the estimate is finite and the interval long above, short below.
  auto g = games(0, 1, 10, 0, 0);
  const auto more = games(1, 0, 0, 0, 10);
  g.insert(g.end(), more.begin(), more.end());
  const arena::EloFit fit = arena::fitElo(2, g, 1, 1.0);
  ASSERT_TRUE(fit.converged);
  EXPECT_EQ(fit.prior_draws, 1.0);
  // 20.5 of 21 points: the penalised maximum is elo(20.5 / 21).
  EXPECT_NEAR(fit.rating[0], eloOf(20.5 / 21), 1e-3);
  EXPECT_GT(fit.low[0], 0) << "20 wins of 20 is significant";
  EXPECT_GT(fit.high[0] - fit.rating[0], 2 * (fit.rating[0] - fit.low[0]));
}

TEST(Elo, DrawsCountHalfAndThePriorKeepsAPerfectScoreFinite) {
  auto draws = games(0, 1, 0, 10, 0);
  const auto back = games(1, 0, 0, 10, 0);
  draws.insert(draws.end(), back.begin(), back.end());
  const arena::EloFit even = arena::fitElo(2, draws, 0, 0.0);
  EXPECT_NEAR(even.rating[1], 0, 1e-6);
  auto sweep = games(0, 1, 0, 0, 10);
  const auto more = games(1, 0, 10, 0, 0);
  sweep.insert(sweep.end(), more.begin(), more.end());
  const arena::EloFit fit = arena::fitElo(2, sweep, 0, 1.0);
  ASSERT_TRUE(fit.converged);
  EXPECT_GT(fit.rating[1], 300);
  EXPECT_TRUE(std::isfinite(fit.high[1]));
  EXPECT_THROW(arena::fitElo(3, sweep, 0, 1.0),
               morne::UndeterminedError);  // player 2 never played
  // One side only and no prior: the side term and the ratings cannot be told apart.
  EXPECT_THROW(arena::fitElo(2, games(0, 1, 0, 20, 0), 0, 0.0), morne::UndeterminedError);
}

TEST(Arena, ScheduleMirrorsEveryRoundOnTheSameDice) {
  arena::ArenaConfig c;
  c.agents = {"random", "rule", "mcts:sims=10"};
  c.scenarios = {env::loadScenario("duel"), env::loadScenario("pyramids")};
  c.rounds = 3;
  const auto g = arena::scheduleArena(c);
  ASSERT_EQ(g.size(), 2u * 3 * 3 * 2);  // scenarios x pairs x rounds x 2
  for (size_t i = 0; i < g.size(); i += 2) {
    EXPECT_EQ(g[i].seed, g[i + 1].seed);
    EXPECT_EQ(g[i].blue, g[i + 1].orange);
    EXPECT_EQ(g[i].orange, g[i + 1].blue);
  }
  // Order: round, pair, scenario. Index 2 is round 0 on the other scenario, 4 the next pair on
  // the first scenario (same dice), 12 round 1.
  EXPECT_EQ(g[2].scenario, 1);
  EXPECT_NE(g[0].seed, g[2].seed);
  EXPECT_EQ(g[4].round, 0);
  EXPECT_EQ(g[0].seed, g[4].seed);
  EXPECT_EQ(g[12].round, 1);
  EXPECT_NE(g[0].seed, g[12].seed);
}

TEST(Arena, ParallelRunMatchesSequentialAndCountsResults) {
  arena::ArenaConfig c;
  c.agents = {"rule", "random"};
  c.scenarios = {env::loadScenario("duel")};
  c.rounds = 4;
  auto run = [&](int jobs) {
    c.jobs = jobs;
    auto games = arena::scheduleArena(c);
    int calls = 0;
    arena::runArena(c, games, [&](const arena::ArenaGame& g, int finished) {
      EXPECT_TRUE(g.played);
      EXPECT_EQ(finished, ++calls);
    });
    EXPECT_EQ(calls, 8);
    return games;
  };
  const auto seq = run(1), par = run(2);
  for (size_t i = 0; i < seq.size(); ++i) {
    EXPECT_EQ(seq[i].result.winner, par[i].result.winner);
    EXPECT_EQ(seq[i].plies, par[i].plies);
  }
  const arena::ArenaStats st = arena::arenaStats(arena::lineupOf(c), seq, -1);
  EXPECT_EQ(st.games, 8);
  ASSERT_EQ(st.pairs.size(), 1u);
  const arena::WinDrawLoss total = st.pairs[0].total();
  EXPECT_EQ(total.games(), 8);
  EXPECT_EQ(st.pairs[0].a_as_blue.games(), 4);
  EXPECT_EQ(st.agents[0].results.wins, total.wins);
  EXPECT_EQ(st.agents[1].results.losses, total.wins);
  EXPECT_EQ(st.blue.wins + st.blue.draws + st.blue.losses, 8);
  ASSERT_EQ(st.elo.rating.size(), 2u);
  EXPECT_LT(st.elo.rating[1], 0);  // random below rule
  EXPECT_GT(st.agents[0].decisions, 0);
}

TEST(Arena, DuplicateRoundsNetTheTwoGamesOfARound) {
  arena::ArenaConfig c;
  c.agents = {"a", "b"};
  c.scenarios = {env::loadScenario("duel")};
  c.rounds = 4;
  auto games = arena::scheduleArena(c);  // per round: a blue, then b blue
  // Round 0: blue wins both (split). Round 1: a wins both (won). Round 2: a wins as blue, draws
  // as orange (+0.5). Round 3: b wins both (lost).
  const int winners[8] = {0, 0, 0, 1, 0, env::kNoSide, 1, 0};
  for (size_t i = 0; i < games.size(); ++i) {
    games[i].played = true;
    games[i].result.winner = winners[i];
  }
  const arena::DuplicateRecord d =
      arena::arenaStats(arena::lineupOf(c), games, 0).pairs[0].duplicate;
  // The games of a round are found wherever they are (games.csv lists them as they finish).
  std::vector<arena::ArenaGame> reversed(games.rbegin(), games.rend());
  const arena::DuplicateRecord r =
      arena::arenaStats(arena::lineupOf(c), reversed, 0).pairs[0].duplicate;
  EXPECT_EQ(r.rounds, 4);
  EXPECT_DOUBLE_EQ(r.mean, (0 + 1 + 0.5 - 1) / 4.0);
  EXPECT_EQ(d.rounds, 4);
  EXPECT_EQ(d.won, 2);
  EXPECT_EQ(d.split, 1);
  EXPECT_EQ(d.lost, 1);
  EXPECT_DOUBLE_EQ(d.mean, (0 + 1 + 0.5 - 1) / 4.0);
  const double var = ((0 - 0.125) * (0 - 0.125) + (1 - 0.125) * (1 - 0.125) +
                      (0.5 - 0.125) * (0.5 - 0.125) + (-1 - 0.125) * (-1 - 0.125)) /
                     3;
  EXPECT_NEAR(d.margin95, 1.959963984540054 * std::sqrt(var / 4), 1e-12);
}

// A resumed run keeps the saved agents, scenarios, seed and rounds; what is given must agree,
// and rounds may only grow. A folder with results is kept unless replacing is asked for, and a
// resumed folder marks the games of its games.csv played.
TEST(ArenaFolder, AResumedRunContinuesTheSavedRunOnly) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("morne_arena_folder_" + std::to_string(::getpid())))
                              .string();
  std::filesystem::remove_all(dir);
  arena::ArenaConfig c;
  c.agents = {"rule", "random"};
  c.scenarios = {env::loadScenario("duel")};
  c.rounds = 2;
  c.seed = 7;
  const arena::ArenaRunFile saved{c.agents, {"duel"}, 2, 7};
  const arena::ArenaLineup lineup = arena::lineupOf(c);
  std::vector<arena::ArenaGame> schedule = arena::scheduleArena(c);
  {
    arena::ArenaFolder folder(dir, saved, arena::FolderUse::kNew, lineup, schedule);
    schedule[1].played = true;
    schedule[1].result = {.vp = {3, 0}, .winner = 0, .level = 2};
    folder.addGame(c, schedule[1]);
    folder.finish({arena::arenaStats(lineup, schedule, 0)});
  }
  arena::GivenRun given{{{"rule", "mcts"}, {"duel"}, 5, 7}, false, false, false, false};
  arena::ArenaRunFile run = arena::resumedRun(dir, given);
  EXPECT_EQ(run.agents, saved.agents);
  EXPECT_EQ(run.rounds, 2);
  given.rounds = true;
  EXPECT_EQ(arena::resumedRun(dir, given).rounds, 5);
  given.run.rounds = 1;
  EXPECT_THROW(arena::resumedRun(dir, given), ConfigError) << "fewer rounds";
  given.agents = true;
  given.run.rounds = 5;
  EXPECT_THROW(arena::resumedRun(dir, given), ConfigError) << "other agents";

  std::vector<arena::ArenaGame> again = arena::scheduleArena(c);
  EXPECT_THROW(arena::ArenaFolder(dir, saved, arena::FolderUse::kNew, lineup, again), ConfigError);
  {
    const arena::ArenaFolder resumed(dir, saved, arena::FolderUse::kResume, lineup, again);
    EXPECT_EQ(resumed.resumed(), 1);
    EXPECT_TRUE(again[1].played);
    EXPECT_FALSE(again[0].played);
  }
  std::vector<arena::ArenaGame> fresh = arena::scheduleArena(c);
  const arena::ArenaFolder replaced(dir, saved, arena::FolderUse::kReplace, lineup, fresh);
  EXPECT_EQ(replaced.resumed(), 0);
  EXPECT_FALSE(std::filesystem::exists(dir + "/ratings.csv"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace morne::test
