// `morne bench mcts`: search speed of the MCTS agent with its heuristic evaluator (static
// leaves, and the default one-player-turn rollouts), in simulations per second, on 1 thread and
// on more, over positions taken from a rule-vs-rule game, and the speed-up of the threads
// measured in the same run. Then, where the scenario has a shipped network, the simulations a
// 200 ms decision buys `mcts` and `az` side by side: az one leaf at a time, in batches of 8
// leaves, and in bfloat16 where the CPU has it.

#include <algorithm>
#include <bit>
#include <cstdio>
#include <functional>
#include <iostream>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_kinds.h"
#include "agents/mcts_agent.h"
#include "agents/model_library.h"
#include "agents/search_spread.h"
#include "cli/bench/bench.h"
#include "cli/bench/bench_stats.h"
#include "cli/commands.h"
#include "core/number_text.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "nn/cpu_features.h"

namespace morne::cli {

namespace {

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

// Mean simulations per decision of the agent `spec` over `positions`.
double simulationsPerDecision(const std::string& spec,
                              const std::vector<env::GameState>& positions) {
  const auto agent = agents::makeAgent(spec, 1);
  double sims = 0;
  for (const env::GameState& s : positions) sims += agent->decide(s).info.simulations;
  return sims / static_cast<double>(positions.size());
}

constexpr double kDecisionMs = 200;

// The 200 ms table of `name`, when a network of that name is shipped.
void networkAgainstRollouts(const std::string& name, const std::vector<env::GameState>& sample,
                            const BenchConfig& bench) {
  bool shipped = false;
  for (const auto& [model, file] : agents::shippedModels()) shipped |= model == name;
  if (!shipped) {
    std::cout << "\n" << name << ": no shipped network of that name, so no az rows\n";
    return;
  }
  const auto per_round =
      static_cast<size_t>(std::max(2.0, bench.seconds * 1000 / kDecisionMs / bench.repeats));
  const std::vector<env::GameState> positions(
      sample.begin(),
      sample.begin() + static_cast<std::ptrdiff_t>(std::min(per_round, sample.size())));
  const std::string budget = "ms=" + core::fixedText(kDecisionMs, 0) + ",reuse=0";
  const std::string az = "az:model=" + name + "," + budget;
  std::vector<std::pair<std::string, std::string>> rows = {
      {"mcts (rollout=1)", "mcts:" + budget},
      {"az, one leaf at a time", az + ",batch=1,precision=fp32"},
      {"az, batches of 8 leaves", az + ",batch=8,precision=fp32"}};
  if (nn::cpuHasBFloat16())
    rows.emplace_back("az, batches of 8, bf16", az + ",batch=8,precision=bf16");
  std::vector<std::function<double()>> configs;
  for (const auto& row : rows)
    configs.push_back(
        [&positions, spec = row.second] { return simulationsPerDecision(spec, positions); });
  const auto m = measureInterleaved(bench.repeats, configs);
  std::cout << "\n"
            << spreadHeader(name + ", sims per " + core::fixedText(kDecisionMs, 0) + " ms decision")
            << "\n";
  for (size_t c = 0; c < rows.size(); ++c) {
    std::cout << spreadRow(rows[c].first, m[c], 0) << "\n";
    if (c > 1)
      std::cout << spreadRow("  against one leaf at a time", roundRatios(m[c], m[1]), 2) << "\n";
  }
  if (!nn::cpuHasBFloat16()) std::cout << "(no bf16 row: this CPU has no AVX-512 BF16)\n";
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
    const auto positions = agents::ruleGamePositions(*sc, bench.seed, kPositions);
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
    networkAgainstRollouts(name, positions, bench);
  }
  std::cout
      << "\nsims/s: simulations (select, expand with priors and evaluation, back up) per second\n"
         "of wall time; leaf: static evaluation, or one player-turn of rule play first (the\n"
         "default); speed-up: against 1 thread in the same round (root-parallel trees).\n"
         "sims per decision: the mean over the first positions (as many as the time per\n"
         "scenario allows a round), 1 thread, no tree reuse; az uses the shipped network of\n"
         "the scenario's name (models/), in fp32 unless marked.\n";
  return 0;
}

}  // namespace morne::cli
