#pragma once
// Plays complete games between two agents, drawing every chance outcome from one generator
// seeded by the game seed, so (scenario, seed, agents) always gives the same game.

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "agents/agent.h"
#include "agents/step_counter.h"
#include "env/events.h"
#include "env/rules.h"

namespace morne::agents {

// Receives the game as it is played (for logs and progress). Default: ignores everything.
class GameObserver {
 public:
  virtual ~GameObserver() = default;
  // Called once with the initial position and what starting the game caused.
  virtual void onStart(const env::GameState& /*start*/, const env::EventLog& /*events*/) {}
  // Called after each ply with the positions before and after it and the events it caused.
  virtual void onPly(const env::GameState& /*before*/, const Ply& /*ply*/,
                     const env::GameState& /*after*/, const env::EventLog& /*events*/) {}
};

struct GameSummary {
  std::vector<Ply> plies;
  env::GameResult result;
  int decisions = 0;                                         // plies that were agent decisions
  std::array<int, env::kNumSides> side_decisions = {};       // per side
  std::array<double, env::kNumSides> decision_seconds = {};  // time each side spent deciding
  std::array<StepCounts, env::kNumSides> steps = {};         // movement steps, reversals, revisits
  std::array<int, env::kNumSides> player_turns = {};  // player-turns with at least one decision
  std::array<double, env::kNumSides> max_turn_seconds = {};  // longest thinking in one of them
  uint64_t final_hash = 0;
  bool interrupted = false;  // stopped before the end (the result is that of the last position)
};

// The seed an agent of `side` gets in a game played with `game_seed`.
uint64_t agentSeed(uint64_t game_seed, int side);

// Plays a whole game of `sc`. agents[0] plays blue, agents[1] orange. Chance outcomes come from
// an Rng seeded with `seed`. `observer` may be null. When `stop` becomes true the game ends
// after the current ply, marked interrupted.
GameSummary playGame(const env::Scenario& sc, Agent& blue, Agent& orange, uint64_t seed,
                     GameObserver* observer, const std::atomic<bool>* stop = nullptr);

}  // namespace morne::agents
