#include "agents/game_runner.h"

#include <algorithm>
#include <chrono>

#include "agents/informed_decision.h"
#include "env/rng.h"

namespace morne::agents {

uint64_t agentSeed(uint64_t game_seed, int side) {
  return env::splitMix64(game_seed * 2 + static_cast<uint64_t>(side) + 0x41676E74ull);
}

GameSummary playGame(const env::Scenario& sc, Agent& blue, Agent& orange, uint64_t seed,
                     GameObserver* observer, const std::atomic<bool>* stop) {
  env::Rng dice(seed);
  env::EventLog events;
  env::EventLog* log = observer ? &events : nullptr;
  env::GameState s = env::newGame(sc, log);
  if (observer) observer->onStart(s, events);
  GameSummary summary;
  Agent* agents[env::kNumSides] = {&blue, &orange};
  StepCounter steps;
  int turn = -1;  // the player-turn being played (game turn x 2 + side)
  double turn_seconds = 0;
  while (!s.isTerminal()) {
    if (stop && *stop) {
      summary.interrupted = true;
      break;
    }
    Ply ply;
    const env::GameState before = s;
    events.clear();
    if (s.isChanceNode()) {
      ply.chance = true;
      ply.outcome = env::sampleChance(s, dice);
      env::applyChance(s, ply.outcome, log);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      ply.action = decideWithWhatItKnows(*agents[s.side], s).action;
      const double took =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const auto side = static_cast<size_t>(s.side);
      summary.decision_seconds[side] += took;
      ++summary.side_decisions[side];
      if (s.turn * 2 + s.side != turn) {
        turn = s.turn * 2 + s.side;
        turn_seconds = 0;
        ++summary.player_turns[side];
      }
      turn_seconds += took;
      summary.max_turn_seconds[side] = std::max(summary.max_turn_seconds[side], turn_seconds);
      steps.onDecision(s, ply.action);
      env::applyAction(s, ply.action, log);
      ++summary.decisions;
    }
    summary.plies.push_back(ply);
    if (observer) observer->onPly(before, ply, s, events);
  }
  summary.steps = steps.counts();
  summary.result = env::gameResult(s);
  summary.final_hash = s.hash;
  return summary;
}

}  // namespace morne::agents
