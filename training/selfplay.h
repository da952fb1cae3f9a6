#pragma once
// Self-play: many games at once, any agent spec on both sides (the MCTS agent makes
// generation 0 before any network exists, "az" specs the later ones), every fully searched
// position recorded with the agent's policy target and the game's final result as value
// target, and one writer thread that drains a bounded queue of finished games into HDF5 shards
// (training/shard_writer.h).
//
// Threads: `jobs` TBB workers each own a slice of the games (game t, t + jobs, ...). A worker
// keeps `games_per_thread` games going in lock-step (lc0's shape): it advances every game to
// its next leaf, evaluates the leaves in one batch through its own cached evaluator, hands the
// values back, and loops; so no thread ever waits on another. Agents without a lock-step form
// (rule, mcts) play their slice one game at a time. The same seed and settings give the same
// data.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "env/scenario.h"
#include "training/shard_writer.h"

namespace morne::training {

struct SelfPlayConfig {
  std::shared_ptr<const env::Scenario> scenario;
  std::string agent = "mcts:sims=200";  // plays both sides
  int games = 8;
  int jobs = 1;               // worker threads
  int games_per_thread = 16;  // lock-step games of one worker (agents with a lock-step form)
  // Every network batch padded to games_per_thread positions, so that the data do not depend
  // on --jobs (agents/network_agent.h); off: faster, the same data only for the same --jobs.
  bool batch_invariant = true;
  size_t cache_entries = 1 << 16;  // evaluation cache of one worker (0: none)
  uint64_t seed = 1;
  std::string out_dir = "selfplay";
  std::string prefix;  // shard names: PREFIX-NNNN.h5
  int rows_per_shard = 4096;
  // Exploration: the first `temperature_moves` decisions of a game are drawn in proportion to
  // the agent's policy target (the search's visits); later ones play the agent's choice.
  int temperature_moves = 20;
  // Playout cap randomisation (KataGo): with `cheap_sims` > 0, a decision gets the full
  // budget with probability `full_search_probability` (and is recorded), else `cheap_sims`
  // simulations (and is not recorded).
  int cheap_sims = 0;
  double full_search_probability = 0.25;
  // Resignation: with `resign_value` > 0, a side whose search values its position below
  // -resign_value for `resign_moves` decisions in a row resigns, except in a share
  // `resign_check_fraction` of the games, which play on to measure false resignations.
  double resign_value = 0;
  int resign_moves = 3;
  double resign_check_fraction = 0.1;
  // Adjudication: with `adjudicate_decisions` > 0, a game is stopped after that many decisions
  // and scored as it stands (victory points).
  int adjudicate_decisions = 0;
  int queue_games = 32;     // finished games waiting for the writer, at most
  std::string config_json;  // the run's settings, stored in every shard
  std::string engine;       // version line, stored in every shard
};

struct SelfPlayProgress {
  int games_done = 0;
  int games_total = 0;
  int64_t positions = 0;         // recorded positions of finished games (written)
  int64_t positions_played = 0;  // recorded positions of every game, finished or not
  int64_t decisions = 0;         // all decisions of finished games, recorded or not
  int resigned = 0;              // games ended by resignation
  int adjudicated = 0;
  int resign_checks = 0;       // no-resignation games in which a side would have resigned
  int false_resignations = 0;  // ... and did not lose
  // Lock-step evaluation: leaves asked for, of which answered by the cache, and the batches
  // sent to the evaluator with the positions in them.
  int64_t leaves = 0;
  int64_t cache_hits = 0;
  int64_t batches = 0;
  int64_t evaluated = 0;
  double evaluator_seconds = 0;  // summed over threads: time inside the network
  double seconds = 0;
};

struct SelfPlayResult {
  SelfPlayProgress progress;
  std::vector<std::string> shards;
  std::vector<RecoveredShard> recovered;  // journals of a killed run found in the folder
  bool interrupted = false;
};

// Runs self-play. `progress` is called after each finished game (one call at a time). When
// `*stop` becomes true, games in progress are abandoned, finished ones are written, and the
// open shard is completed. Throws ConfigError on a bad agent spec before any file is created.
SelfPlayResult runSelfPlay(const SelfPlayConfig& config,
                           const std::function<void(const SelfPlayProgress&)>& progress,
                           const std::atomic<bool>* stop);

// The spec of playout cap randomisation's cheap searches: the agent's, with `sims` simulations
// and no root noise (they are not recorded, so they need no exploration).
std::string cheapSearchSpec(const std::string& spec, int sims);

}  // namespace morne::training
