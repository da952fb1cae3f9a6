// `morne bench mcts`: search speed of the MCTS agent with its heuristic evaluator (static
// leaves, and the default one-player-turn rollouts), in simulations per second, on 1 thread and
// on more, over positions taken from a rule-vs-rule game, and the speed-up of the threads
// measured in the same run.

#include <algorithm>
#include <bit>
#include <cstdio>
#include <functional>
#include <iostream>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/game_runner.h"
#include "agents/mcts_agent.h"
#include "agents/rule_agent.h"
#include "cli/bench/bench.h"
#include "cli/bench/bench_stats.h"
#include "cli/commands.h"
#include "core/number_text.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/scenario_library.h"

namespace morne::cli {

namespace {

// Decision positions with a real choice, from a rule-vs-rule game, spread over the game.
std::vector<env::GameState> samplePositions(const env::Scenario& sc, uint64_t seed, size_t count) {
  struct Collector : agents::GameObserver {
    std::vector<env::GameState> all;
    void onPly(const env::GameState& before, const agents::Ply& ply, const env::GameState&,
               const env::EventLog&) override {
      if (ply.chance) return;
      env::ActionList legal;
      env::legalActions(before, legal);
      if (legal.size() > 1) all.push_back(before);
    }
  } collector;
  agents::RuleAgent blue, orange;
  agents::playGame(sc, blue, orange, seed, &collector);
  std::vector<env::GameState> out;
  const size_t n = collector.all.size();
  for (size_t i = 0; i < std::min(count, n); ++i)
    out.push_back(collector.all[i * n / std::min(count, n)]);
  return out;
}

// Simulations per second over `positions`, `ms_per_position` each.
double measure(const std::vector<env::GameState>& positions, int rollout, int threads,
               double ms_per_position, uint64_t seed) {
  agents::MctsAgentParams p;
  p.rollout = rollout;
  p.search.threads = threads;
  p.search.milliseconds = ms_per_position;
  p.search.reuse_tree = false;
  const auto agent = agents::makeMctsSearchAgent(p, seed);
  double sims = 0, seconds = 0;
  for (const env::GameState& s : positions) {
    const agents::Decision d = agent->decide(s);
    sims += d.info.simulations;
    seconds += d.info.seconds;
  }
  return sims / seconds;
}

}  // namespace

int benchMcts(const BenchConfig& bench) {
  std::vector<std::string> names = bench.scenarios;
  if (names.empty()) names = {"duel", "crossing"};
  const double budget = bench.seconds;
  const int max_threads = bench.threads;
  const int repeats = bench.repeats;
  constexpr size_t kPositions = 20;
  std::cout << core::versionLine() << "\nbench mcts: heuristic evaluator, no tree reuse, "
            << kPositions << " positions from a rule-vs-rule game, " << core::fixedText(budget, 2)
            << " s per scenario, leaf evaluation and thread count, in " << repeats
            << " interleaved rounds; " << loadText() << "\n";
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    const auto positions = samplePositions(*sc, bench.seed, kPositions);
    if (positions.empty())
      throw ConfigError("bench mcts: " + name + " has no position with a choice");
    const double ms = 1000 * budget / repeats / static_cast<double>(positions.size());
    measure(positions, 0, 1, ms / 10, 1);  // warm-up
    std::vector<std::function<double()>> configs;
    std::vector<std::pair<int, int>> labels;  // rollout, threads
    for (int rollout : {0, 1}) {
      for (int t = 1; t <= max_threads; t *= 2) {
        labels.emplace_back(rollout, t);
        configs.push_back(
            [&positions, rollout, t, ms] { return measure(positions, rollout, t, ms, 1); });
      }
    }
    const auto m = measureInterleaved(repeats, configs);
    std::cout << "\n" << spreadHeader(name + ", simulations/s") << "\n";
    for (size_t c = 0; c < configs.size(); ++c) {
      const auto [rollout, t] = labels[c];
      const std::string leaf = rollout ? "rollout=1" : "static";
      std::cout << spreadRow(leaf + ", " + std::to_string(t) + " thread(s)", m[c], 0) << "\n";
      if (t > 1) {
        const size_t base = c - static_cast<size_t>(std::countr_zero(static_cast<unsigned>(t)));
        std::cout << spreadRow("  speed-up over 1 thread", roundRatios(m[c], m[base]), 2) << "\n";
      }
    }
  }
  std::cout
      << "\nsims/s: simulations (select, expand with priors and evaluation, back up) per second\n"
         "of wall time; leaf: static evaluation, or one player-turn of rule play first (the\n"
         "default); speed-up: against 1 thread in the same round (root-parallel trees).\n";
  return 0;
}

}  // namespace morne::cli
