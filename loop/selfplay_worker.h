#pragma once
// A self-play worker of a learning run (loop/run_folder.h): it plays games of the data set
// latest.json names, with the network it names (the bootstrap agent before the first
// promotion), into selfplay/gen-NNN/ under its own name, and looks at latest.json again
// between chunks of games. Any number of workers, on any machines sharing the run folder, may
// start and stop at any time: a worker killed mid-game loses that game only (its finished
// games are in its journal, which any process of the run turns into a shard).

#include <memory>
#include <string>

#include "loop/loop_config.h"

namespace morne::loop {

class SelfplayWorker {
 public:
  // Takes the worker's name in the run (workers/NAME.lock). `name` is letters, digits, '.',
  // '_' and '-'. Throws ConfigError when the name is bad or another live worker holds it.
  SelfplayWorker(const RoleContext& run, std::string name, int jobs);
  ~SelfplayWorker();

  // Plays at most `games` games of the current data set with the current network, when that
  // network is complete in the folder. Returns the games played (0 when the network is not
  // yet readable); stops early when the run stops.
  int playChunk(int games);

  // Numbers the next chunk `next` at least: a worker whose own records were lost learns from
  // the run how far its name has gone (loop/remote_worker.h), so no name or seed is used twice.
  void continueFrom(int64_t next);

  // Plays until data set `g` holds `target` games (the loop's "alternate" mode, where `g` is
  // the data set latest.json names). False when stopped.
  bool fill(int g, int target);

 private:
  void saveTotals() const;
  // Whether the next chunk plays with resignation suspended (loop.resign_bound), said under
  // `set` when that changes.
  bool resignationSuspended(const std::string& set);
  // The archived positions the games of data set `data_set` may start from: those of the
  // kArchiveDataSets data sets before it, read once per data set (problems said under `set`).
  std::shared_ptr<const std::vector<env::GameState>> startsFor(int data_set,
                                                               const std::string& set);

  const RoleContext& run_;
  std::string name_;
  int jobs_;
  std::unique_ptr<env::FileLock> lock_;
  LatestNetwork playing_;   // the network of the last chunk
  LatestNetwork verified_;  // the last pointer whose network was found whole (files never change)
  bool announced_ = false;
  std::string problem_;  // why the last pointer's network could not be played ("" when it could)
  int64_t games_ = 0, positions_ = 0, positions_played_ = 0;
  int64_t chunks_ = 0;  // chunks begun: the next one's number, its seed and shard names
  // Checked games (those that played on) in which a side would have resigned, and those of them
  // it did not lose: counts that halve once past kResignMemory, so recent networks weigh most.
  double resign_checks_ = 0, false_resignations_ = 0;
  bool resign_suspended_ = false;
  double cpu_seconds_ = 0;
  int starts_set_ = -1;  // the data set `starts_` was read for
  std::shared_ptr<const std::vector<env::GameState>> starts_;
};

// One past the highest chunk number in the names of the shards, journals and archives of the
// worker `name` in the run folder's data sets (0 when it has none).
int64_t nextChunkOf(const RunFolder& folder, const std::string& name);

// The `morne loop worker` process: plays chunks of `chunk_games` until the run's last
// generation is gated, `max_games` are played (0: no limit), or the run stops. Returns the
// games played.
int64_t runSelfplayWorker(const RoleContext& run, const std::string& name, int jobs,
                          int64_t max_games);

}  // namespace morne::loop
