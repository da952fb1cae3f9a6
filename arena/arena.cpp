#include "arena/arena.h"

#include <chrono>
#include <mutex>

#include "agents/agent_kinds.h"
#include "agents/game_runner.h"
#include "env/error.h"
#include "env/rng.h"
#include "mcts/workers.h"

namespace morne::arena {

std::vector<ArenaGame> scheduleArena(const ArenaConfig& config) {
  std::vector<ArenaGame> games;
  const int n = static_cast<int>(config.agents.size());
  for (int round = 0; round < config.rounds; ++round) {
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        for (int sc = 0; sc < static_cast<int>(config.scenarios.size()); ++sc) {
          ArenaGame g;
          g.scenario = sc;
          g.round = round;
          g.seed = env::deriveSeed(config.seed, sc, round);
          g.blue = a;
          g.orange = b;
          g.number = static_cast<int>(games.size());
          games.push_back(g);
          std::swap(g.blue, g.orange);
          g.number = static_cast<int>(games.size());
          games.push_back(g);
        }
      }
    }
  }
  return games;
}

namespace {

std::unique_ptr<agents::Agent> makeArenaAgent(const ArenaConfig& config, int agent, uint64_t seed) {
  if (config.make_agent) return config.make_agent(agent, seed);
  return agents::makeAgent(config.agents[static_cast<size_t>(agent)], seed);
}

}  // namespace

void checkArenaAgents(const ArenaConfig& config) {
  for (int a = 0; a < static_cast<int>(config.agents.size()); ++a) makeArenaAgent(config, a, 0);
}

void runArena(const ArenaConfig& config, std::vector<ArenaGame>& games,
              const std::function<void(const ArenaGame&, int finished)>& on_finished,
              const std::atomic<bool>* stop) {
  std::mutex report;
  int finished = 0;
  for (const ArenaGame& g : games) finished += g.played;
  mcts::forEachInParallel(config.jobs, static_cast<int>(games.size()), [&](int i) {
    ArenaGame& g = games[static_cast<size_t>(i)];
    if (g.played || (stop && *stop)) return;
    const auto t0 = std::chrono::steady_clock::now();
    agents::GameSummary summary;
    try {
      auto blue = makeArenaAgent(config, g.blue, agents::agentSeed(g.seed, 0));
      auto orange = makeArenaAgent(config, g.orange, agents::agentSeed(g.seed, 1));
      summary = playGame(*config.scenarios[static_cast<size_t>(g.scenario)], *blue, *orange, g.seed,
                         nullptr, stop);
    } catch (const IoError& e) {  // a program that failed: its game alone ends
      g.error = e.what();
      return;
    }
    if (summary.interrupted) return;
    g.result = summary.result;
    g.plies = static_cast<int>(summary.plies.size());
    g.decisions = summary.side_decisions;
    g.decision_seconds = summary.decision_seconds;
    g.steps = summary.steps;
    if (config.keep_plies) g.plies_played = summary.plies;
    g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    g.played = true;
    std::lock_guard lock(report);
    on_finished(g, ++finished);
  });
}

std::vector<std::string> arenaErrors(const ArenaConfig& config,
                                     const std::vector<ArenaGame>& games) {
  std::vector<std::string> lines;
  for (const ArenaGame& g : games) {
    if (g.error.empty()) continue;
    lines.push_back("game " + std::to_string(g.number) + " (" +
                    config.agents[static_cast<size_t>(g.blue)] + " vs " +
                    config.agents[static_cast<size_t>(g.orange)] + " on " +
                    config.scenarios[static_cast<size_t>(g.scenario)]->name() + "): " + g.error);
  }
  return lines;
}

}  // namespace morne::arena
