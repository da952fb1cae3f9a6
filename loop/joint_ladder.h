#pragma once
// The joint ladder of a learning run (`morne loop ladder RUN`, docs/training.md): chosen
// generations' networks and fixed reference agents in one duplicate round robin, rated
// together, so that the networks' progress is measured on one scale with intervals, by
// generation and by the CPU-hours the run had spent when each was made. The games are an
// arena run (arena/) in RUN/ladder/joint; this file names the entrants and turns the arena's
// ratings into the run's progress.

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arena/arena_run.h"
#include "loop/loop_config.h"
#include "loop/run_folder.h"

namespace morne::loop {

// One generation's network in the ladder.
struct LadderEntrant {
  int generation = 0;
  std::string network;    // its file, the learner's candidate of that generation
  double cpu_hours = -1;  // of the run when it was made (-1: a run that did not record it)
};

// The entrants of `generations` (each at least 1), in order. ConfigError naming the file when
// a generation has no network yet.
std::vector<LadderEntrant> ladderEntrants(const RunFolder& folder,
                                          const std::vector<int>& generations);

// Every generation of the run that has a network, from 1.
std::vector<int> trainedGenerations(const RunFolder& folder);

// Reads the arena's summary.json in `out_dir` (agents: the references first, then the
// entrants in order) and writes out_dir/generations.json (each entrant's Elo with its 95%
// interval against the first reference, its CPU-hours) and out_dir/progress.svg (Elo by
// generation and by CPU-hour, with the interval). Returns the table as text.
std::string writeLadderProgress(const std::string& out_dir,
                                const std::vector<LadderEntrant>& entrants, int references);

// What a joint ladder plays (`morne loop ladder`'s options).
struct JointLadderRequest {
  std::vector<int> generations;  // whose networks play (empty: every one trained)
  std::string references;  // reference specs, by spaces; the first is the anchor ("": the run's)
  std::string agent;       // the spec the networks play as ("": the run's ladder_agent)
  int rounds = 50;
  int jobs = 2;
  uint64_t seed = 1;
  std::string out;  // the arena run's folder ("": RUN/ladder/joint)
  bool force = false;
};

// A joint ladder ready to play: its entrants and the arena run that rates them (resumed when
// its folder holds the same ladder).
struct JointLadder {
  std::vector<LadderEntrant> entrants;
  std::vector<std::string> references;
  arena::ArenaRequest arena;
};

// The joint ladder `request` asks of the run `config` in `folder`. Throws ConfigError when the
// run has no network yet, a generation has none, no reference is given, a network's path holds
// what a spec cannot carry (agents::withModel), or the folder holds a ladder of other players or
// another seed (and `force` is not set).
JointLadder planJointLadder(const RunFolder& folder, const LoopConfig& config,
                            const JointLadderRequest& request);

// Plays `ladder` (arena/arena_run.h, heard by `observer`) until done or `stop`; when every game
// is played, writes its progress (writeLadderProgress) into `progress`.
arena::ArenaRun runJointLadder(const JointLadder& ladder, arena::ArenaObserver& observer,
                               const std::atomic<bool>* stop, std::string& progress);

}  // namespace morne::loop
