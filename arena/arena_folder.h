#pragma once
// The output folder of an arena run (formats: docs/arena.md): run.json (what the run plays),
// games.csv (each finished game, one whole row per write, so a kill or a full disk leaves
// every finished game's row and no torn one), the reports, and records/ (each game's record
// when asked). A folder that holds results is never overwritten unless the caller says so; a
// resumed run plays only the games its games.csv lacks.

#include <optional>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/results.h"
#include "arena/stats.h"
#include "env/io/durable_file.h"

namespace morne::arena {

// What a run given on the command line says, and which of its fields were given.
struct GivenRun {
  ArenaRunFile run;
  bool agents = false, scenarios = false, rounds = false, seed = false;
};

// The run saved in `dir`/run.json, continued: its agents, scenarios and seed, and its rounds
// unless more are given. Throws ConfigError when a given field differs from the saved run's (a
// given --rounds may only grow it), naming the field and the file.
ArenaRunFile resumedRun(const std::string& dir, const GivenRun& given);

// How a run treats the results already in its folder.
enum class FolderUse {
  kNew,      // refuses a folder that holds results
  kResume,   // keeps them and plays the rest
  kReplace,  // deletes them first
};

class ArenaFolder {
 public:
  // Opens `dir` (made when missing) for `run`, written to run.json, and games.csv for
  // appending. kNew throws ConfigError naming the results `dir` holds; kReplace deletes them
  // (and records/); kResume marks the games of games.csv played in `schedule`. A run with
  // `records` makes records/ for the games' records. Throws IoError when a file or folder
  // cannot be made.
  ArenaFolder(const std::string& dir, const ArenaRunFile& run, FolderUse use,
              const ArenaLineup& lineup, std::vector<ArenaGame>& schedule);

  // The games of games.csv found played when it was opened.
  int resumed() const { return resumed_; }

  // Appends finished game `g` to games.csv, and writes its record to records/game-N.json (N its
  // number, games.csv's "game" column) when records are kept.
  void addGame(const ArenaConfig& config, const ArenaGame& g);

  // Syncs and closes games.csv and writes the reports of `scopes`.
  void finish(const std::vector<ArenaStats>& scopes);

 private:
  std::string dir_;
  ArenaLineup lineup_;
  bool records_;
  size_t columns_ = SIZE_MAX;  // of games.csv's rows: a resumed file keeps its own
  int resumed_ = 0;
  std::optional<env::AppendOnlyFile> games_csv_;
};

}  // namespace morne::arena
