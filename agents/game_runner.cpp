#include "agents/game_runner.h"

#include <chrono>

#include "env/zobrist.h"

namespace morne::agents {

uint64_t agentSeed(uint64_t game_seed, int side) {
  return env::zobrist::mix(game_seed * 2 + static_cast<uint64_t>(side) + 0x41676E74ull);
}

GameSummary playGame(const env::Scenario& sc, Agent& blue, Agent& orange, uint64_t seed,
                     GameObserver* observer) {
  env::Rng dice(seed);
  env::EventLog events;
  env::EventLog* log = observer ? &events : nullptr;
  env::GameState s = env::newGame(sc, log);
  if (observer) observer->onStart(s, events);
  GameSummary summary;
  Agent* agents[env::kNumSides] = {&blue, &orange};
  while (!s.isTerminal()) {
    Ply ply;
    const env::GameState before = s;
    events.clear();
    if (s.isChanceNode()) {
      ply.chance = true;
      ply.outcome = env::sampleChance(s, dice);
      env::applyChance(s, ply.outcome, log);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      ply.action = agents[s.side]->chooseAction(s);
      summary.decision_seconds[static_cast<size_t>(s.side)] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++summary.side_decisions[static_cast<size_t>(s.side)];
      env::applyAction(s, ply.action, log);
      ++summary.decisions;
    }
    summary.plies.push_back(ply);
    if (observer) observer->onPly(before, ply, s, events);
  }
  summary.result = env::gameResult(s);
  summary.final_hash = s.hash;
  return summary;
}

}  // namespace morne::agents
