// `morne bench mcts`: search speed of the MCTS agent with its heuristic evaluator (static
// leaves, and the default one-player-turn rollouts), in simulations per second, on 1 thread and
// on more, over positions taken from a rule-vs-rule game, and the speed-up of the threads
// measured in the same run.

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

#include "agents/agent_spec.h"
#include "agents/game_runner.h"
#include "agents/mcts_agent.h"
#include "agents/rule_agent.h"
#include "cli/bench.h"
#include "cli/commands.h"
#include "env/error.h"
#include "env/scenario_library.h"

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

struct SearchSpeed {
  double sims_per_second = 0;
  double nodes = 0;  // mean tree size after a search, all threads together
};

SearchSpeed measure(const std::vector<env::GameState>& positions, int rollout, int threads,
                    double ms_per_position, uint64_t seed) {
  agents::MctsAgentParams p;
  p.rollout = rollout;
  p.search.threads = threads;
  p.search.milliseconds = ms_per_position;
  p.search.reuse_tree = false;
  const auto agent = agents::makeMctsAgent(p, seed);
  double sims = 0, seconds = 0, nodes = 0;
  for (const env::GameState& s : positions) {
    const agents::Decision d = agent->decide(s);
    sims += d.info.simulations;
    seconds += d.info.seconds;
    nodes += static_cast<double>(d.info.nodes);
  }
  return {sims / seconds, nodes / static_cast<double>(positions.size())};
}

}  // namespace

int benchMcts(const po::variables_map& vm) {
  std::vector<std::string> names = vm["scenario"].as<std::vector<std::string>>();
  if (names.empty()) names = {"duel", "crossing"};
  const double budget = vm["seconds"].as<double>();
  const int max_threads = vm["threads"].as<int>();
  if (budget <= 0) throw ConfigError("--seconds must be positive");
  if (max_threads < 1) throw ConfigError("--threads must be at least 1");
  constexpr size_t kPositions = 20;
  std::cout << versionLine() << "\nbench mcts: heuristic evaluator, no tree reuse, " << kPositions
            << " positions from a rule-vs-rule game, " << budget
            << " s per scenario, leaf evaluation and thread count\n\n";
  std::printf("%-10s %-10s %7s %12s %14s %9s %12s\n", "scenario", "leaf", "threads", "sims/s",
              "sims/s/thread", "speed-up", "tree nodes");
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    const auto positions = samplePositions(*sc, vm["seed"].as<uint64_t>(), kPositions);
    if (positions.empty())
      throw ConfigError("bench mcts: " + name + " has no position with a choice");
    const double ms = 1000 * budget / static_cast<double>(positions.size());
    measure(positions, 0, 1, ms / 10, 1);  // warm-up
    for (int rollout : {0, 1}) {
      double base = 0;
      for (int t = 1; t <= max_threads; t *= 2) {
        const SearchSpeed speed = measure(positions, rollout, t, ms, 1);
        if (t == 1) base = speed.sims_per_second;
        std::printf("%-10s %-10s %7d %12.0f %14.0f %8.2fx %12.0f\n", name.c_str(),
                    rollout ? "rollout=1" : "static", t, speed.sims_per_second,
                    speed.sims_per_second / t, speed.sims_per_second / base, speed.nodes);
      }
    }
  }
  std::cout
      << "\nsims/s: simulations (select, expand with priors and evaluation, back up) per second\n"
         "of wall time; leaf: static evaluation, or one player-turn of rule play first (the\n"
         "default); speed-up: against 1 thread in the same run (root-parallel trees).\n";
  return 0;
}

}  // namespace morne::cli
