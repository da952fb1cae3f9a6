#pragma once
// The arena: round robins between agent specs on one or more scenarios, played as duplicate
// matches (each round is two games on the same dice seed with the sides swapped, so luck
// cancels out between the two agents), many games at once with TBB. Statistics and the Elo fit
// are in arena/stats.h, the run folder in arena/results.h, the reports in arena/report.h, a
// whole run from request to reports in arena/arena_run.h; the command line in cli/cmd_arena.cpp.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/step_counter.h"
#include "env/rules.h"
#include "env/scenario.h"

namespace morne::arena {

struct ArenaConfig {
  std::vector<std::string> agents;  // agent specs, at least two
  std::vector<std::shared_ptr<const env::Scenario>> scenarios;
  int rounds = 5;     // duplicate rounds per pair and scenario (2 games each)
  uint64_t seed = 1;  // base seed: round k of every pair on a scenario uses the same dice seed
  int jobs = 1;       // games played at once
  bool keep_plies = false;  // keep every game's plies in ArenaGame::plies_played (for records)
  // The agent of agents[agent] for one game, seeded `seed`; empty: agents::makeAgent(spec,
  // seed). A program brings agents of its own through it (the Python module's); it may be
  // called from several threads at once.
  std::function<std::unique_ptr<agents::Agent>(int agent, uint64_t seed)> make_agent;
};

// One game of the schedule and, once played, its outcome.
struct ArenaGame {
  int scenario = 0;  // index into ArenaConfig::scenarios
  int blue = 0;      // index into ArenaConfig::agents
  int orange = 0;
  int round = 0;
  int number = 0;     // its place in the schedule, from 0: games.csv's "game", records/game-N.json
  uint64_t seed = 0;  // dice seed, shared with the mirrored game of the same round
  bool played = false;
  // Why the game could not be played ("" when it could, or was not tried): an agent that
  // failed (a program that exited or played an illegal move). Such a game stays unplayed.
  std::string error;
  env::GameResult result;
  int plies = 0;
  std::array<int, env::kNumSides> decisions = {};
  std::array<double, env::kNumSides> decision_seconds = {};
  std::array<agents::StepCounts, env::kNumSides> steps = {};  // per side
  double seconds = 0;
  std::vector<agents::Ply> plies_played;  // every action and chance outcome, with keep_plies
};

// The games of a round robin, in a fixed order: round, pair, scenario, then the mirror (so the
// first games already visit every scenario, and an interrupted run has whole early rounds).
// A game's dice seed depends on the base seed, its scenario and its round only.
std::vector<ArenaGame> scheduleArena(const ArenaConfig& config);

// Makes each agent of `config` once (seed 0), so that a bad spec or a network that does not
// load fails before any game: throws ConfigError or IoError.
void checkArenaAgents(const ArenaConfig& config);

// Plays every game not yet played, `config.jobs` at a time, its agents checked already
// (checkArenaAgents; arena/arena_run.h does both). `on_finished` is called after each game
// (one call at a time, from any thread) with the game and the number finished so far. When
// `stop` becomes true, no game starts and the games in progress are abandoned at their next
// ply (they stay unplayed). A game whose agent's program fails (an IoError: an `ext` program
// that exits, times out or plays an illegal move) ends there with ArenaGame::error set and
// stays unplayed; the other games go on (arenaErrors() lists such games). Other errors (a
// Python agent's mistake) stop the run.
void runArena(const ArenaConfig& config, std::vector<ArenaGame>& games,
              const std::function<void(const ArenaGame&, int finished)>& on_finished,
              const std::atomic<bool>* stop = nullptr);

// One line per game that ended with an error ("game N (BLUE vs ORANGE on SCENARIO): error"),
// in schedule order; empty when none did.
std::vector<std::string> arenaErrors(const ArenaConfig& config,
                                     const std::vector<ArenaGame>& games);

}  // namespace morne::arena
