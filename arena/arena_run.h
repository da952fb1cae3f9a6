#pragma once
// One arena run from its request to its reports: the life cycle every arena of the project
// shares (`morne arena`, morne.arena(), the learning loop's gate, ladders and joint ladder).
// It checks the request and every agent before anything is written, continues a saved run or
// opens a new folder (arena/arena_folder.h), schedules the games, plays them with each finished
// game written at once, and, when stopped or when an agent's program fails, keeps what
// finished, writes the reports of it and says what is left.

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/arena_folder.h"
#include "arena/results.h"
#include "arena/stats.h"

namespace morne::arena {

// What to play.
struct ArenaRequest {
  // The run as asked: agents, scenarios (built-in names or files), rounds, seed, records. With
  // FolderUse::kResume, the run saved in `out` is continued, the fields given checked against it.
  GivenRun given;
  std::string out;                  // the run's folder ("": no files, the outcome only)
  FolderUse use = FolderUse::kNew;  // what to do with results already in `out`
  int jobs = 1;                     // games played at once
  // The scenarios already loaded, one per name of the run (empty: loaded by name).
  std::vector<std::shared_ptr<const env::Scenario>> scenarios;
  // The agent of agents[i] for one game (ArenaConfig::make_agent; empty: the built-in specs).
  std::function<std::unique_ptr<agents::Agent>(int agent, uint64_t seed)> make_agent;
  // Which games of the schedule are played (empty: all); the others stay out of the outcome.
  std::function<bool(const ArenaGame&)> plays;
  std::string what = "arena";  // names the run in errors ("gate games")
};

// A run as it stands: what it plays, and its games so far.
struct ArenaRun {
  ArenaRunFile file;  // the run played (the saved one when resumed)
  ArenaConfig config;
  ArenaLineup lineup;
  std::vector<ArenaGame> games;  // the games played here, in schedule order
  int resumed = 0;               // games of the folder's games.csv, played before
  // After the run: the games played, the lines of those that ended with an agent's error,
  // whether it was stopped before the end, and the statistics of every scope.
  int played = 0;
  std::vector<std::string> errors;
  bool interrupted = false;
  std::vector<ArenaStats> scopes;
};

// What a caller hears of a run; the calls come one at a time (games end on any thread).
class ArenaObserver {
 public:
  virtual ~ArenaObserver() = default;
  // The run is checked, its folder opened and its games scheduled.
  virtual void started(const ArenaRun& run) { (void)run; }
  // Game `g` was played; `finished` games of the run are done, resumed ones included.
  virtual void finished(const ArenaRun& run, const ArenaGame& g, int finished) {
    (void)run, (void)g, (void)finished;
  }
};

// Plays the run `request` asks for until its games are done or `stop` becomes true (the games
// in progress then stay unplayed). Throws ConfigError for a bad request (fewer than two agents,
// no scenario, rounds or jobs below 1, records without a folder, a bad spec, a folder that
// holds results with kNew, a resumed run that differs) before any file is written, IoError when
// a file cannot be written; other errors of an agent (a Python agent's mistake) stop the run.
// The folder's reports cover the games finished, whatever ends the run.
ArenaRun playArenaRun(const ArenaRequest& request, ArenaObserver& observer,
                      const std::atomic<bool>* stop = nullptr);

}  // namespace morne::arena
