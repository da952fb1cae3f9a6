#pragma once
// The files that keep an arena run's results, so no finished game is ever lost: games.csv (one
// row per finished game, appended as each ends) and run.json (what the run is: agents,
// scenarios, rounds, seed), from which `morne arena --resume` continues a run and
// `morne arena rate` recomputes the ratings of one or more runs. Formats: docs/arena.md.

#include <cstdint>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/stats.h"

namespace morne::arena {

// `s` as one CSV field, quoted ("" for a quote inside).
std::string csvQuote(const std::string& s);

// A side's step counts as three CSV fields: steps,reversals,revisits.
std::string stepColumns(const agents::StepCounts& c);

// The header line of games.csv, of its first `columns` columns (all by default: files written
// before the later columns have fewer).
std::string gamesCsvHeader(size_t columns = SIZE_MAX);
// The number of columns a games.csv header names, or 0 when it is not one.
size_t gamesCsvColumns(const std::string& header);
// One row of games.csv, of its first `columns` columns.
std::string gamesCsvRow(const arena::ArenaLineup& lineup, const arena::ArenaGame& g,
                        size_t columns = SIZE_MAX);

// The finished games of one or more games.csv files: the agents and scenarios they name (in
// order of first appearance) and the games, indexing them.
struct SavedGames {
  arena::ArenaLineup lineup;
  std::vector<arena::ArenaGame> games;
  size_t columns = 0;  // the columns of the last file read
};

// Reads a games.csv into `into`, adding its agents and scenarios. Throws IoError when the file
// cannot be read, ConfigError naming the file, line and column of the first bad field.
void readGamesCsv(const std::string& path, SavedGames& into);

// Makes agent `spec` the first of `saved`, the one the ratings are anchored on (rating 0).
// Throws ConfigError listing the agents when `spec` is not one of them.
void anchorOn(const std::string& spec, SavedGames& saved);

// What run.json records of a run: enough to schedule it again.
struct ArenaRunFile {
  std::vector<std::string> agents;
  std::vector<std::string> scenarios;  // as given on the command line (names or files)
  int rounds = 0;
  uint64_t seed = 0;
  bool records = false;  // each game's record is written to records/game-N.json
};

// Writes run.json durably into `dir`.
void writeRunFile(const std::string& dir, const ArenaRunFile& run);

// Reads `dir`/run.json; throws IoError or ConfigError naming the file and the field.
ArenaRunFile readRunFile(const std::string& dir);

// Marks the games of `schedule` that `saved` holds as played, with their results. Each saved
// game must be one of the schedule's (same scenario name, round, agents, dice seed and, where
// the row has one, game number) and appear once; throws ConfigError naming the row otherwise.
// Returns the number marked.
int markSavedGames(const SavedGames& saved, const arena::ArenaLineup& lineup,
                   std::vector<arena::ArenaGame>& schedule);

}  // namespace morne::arena
