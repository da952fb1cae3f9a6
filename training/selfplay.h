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
#include "training/selfplay_config.h"
#include "training/shard_writer.h"

namespace morne::training {

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
  int archive_starts = 0;      // games begun at an archived position
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
  std::string archive;  // the position archive written (SelfPlayConfig::archive), or empty
  bool interrupted = false;
};

// Runs self-play. `progress` is called after each finished game (one call at a time). When
// `*stop` becomes true, games in progress are abandoned, finished ones are written, and the
// open shard is completed. Throws ConfigError on a bad agent spec before any file is created.
SelfPlayResult runSelfPlay(const SelfPlayConfig& config,
                           const std::function<void(const SelfPlayProgress&)>& progress,
                           const std::atomic<bool>* stop);

}  // namespace morne::training
