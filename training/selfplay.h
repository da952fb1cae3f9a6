#pragma once
// Self-play: many games at once (TBB), any agent spec on both sides (the MCTS agent makes
// generation 0 before any network exists, "az" specs the later ones), every searched position
// recorded with the search's visit distribution as policy target and the game's final result
// as value target, and one writer thread that drains a bounded queue of finished games into
// HDF5 shards (training/shard_writer.h).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "env/scenario.h"

namespace morne::training {

struct SelfPlayConfig {
  std::shared_ptr<const env::Scenario> scenario;
  std::string agent = "mcts:sims=200";  // plays both sides
  int games = 8;
  int jobs = 1;                // games played at once
  uint64_t seed = 1;
  std::string out_dir = "selfplay";
  std::string prefix;          // shard names: PREFIX-NNNN.h5
  int rows_per_shard = 4096;
  // Exploration: the first `temperature_moves` decisions of a game are drawn in proportion to
  // the search's visits; later ones play the most visited action.
  int temperature_moves = 20;
  // Playout cap randomisation (KataGo): with `cheap_sims` > 0, a decision gets the full
  // budget with probability `full_search_probability` (and is recorded), else `cheap_sims`
  // simulations (and is not recorded).
  int cheap_sims = 0;
  double full_search_probability = 0.25;
  int queue_games = 32;        // finished games waiting for the writer, at most
  std::string config_json;     // the run's settings, stored in every shard
  std::string engine;          // version line, stored in every shard
};

struct SelfPlayProgress {
  int games_done = 0;
  int games_total = 0;
  int64_t positions = 0;       // recorded positions
  int64_t decisions = 0;       // all decisions, recorded or not
  double seconds = 0;
};

struct SelfPlayResult {
  SelfPlayProgress progress;
  std::vector<std::string> shards;
  bool interrupted = false;
};

// Runs self-play. `progress` is called after each finished game (one call at a time). When
// `*stop` becomes true, games in progress are abandoned, finished ones are written, and the
// open shard is completed. Throws ConfigError on a bad agent spec before any game starts.
SelfPlayResult runSelfPlay(const SelfPlayConfig& config, const std::function<void(const SelfPlayProgress&)>& progress,
                           const std::atomic<bool>* stop);

// The agent spec with its simulation budget replaced by `sims` (for playout cap randomisation).
std::string withSimulations(const std::string& spec, int sims);

}  // namespace morne::training
