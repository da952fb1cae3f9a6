#pragma once
// The files that keep an arena run's results, so no finished game is ever lost: games.csv (one
// row per finished game, appended as each ends) and run.json (what the run is: agents,
// scenarios, rounds, seed), from which `morne arena --resume` continues a run and
// `morne arena rate` recomputes the ratings of one or more runs. Formats: docs/arena.md.

#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/stats.h"

namespace morne::arena {

// `s` as one CSV field, quoted ("" for a quote inside).
std::string csvQuote(const std::string& s);

// A side's step counts as three CSV fields: steps,reversals,revisits.
std::string stepColumns(const agents::StepCounts& c);

// The header line and one row of games.csv.
std::string gamesCsvHeader();
std::string gamesCsvRow(const arena::ArenaLineup& lineup, const arena::ArenaGame& g);

// The finished games of one or more games.csv files: the agents and scenarios they name (in
// order of first appearance) and the games, indexing them.
struct SavedGames {
  arena::ArenaLineup lineup;
  std::vector<arena::ArenaGame> games;
};

// Reads a games.csv into `into`, adding its agents and scenarios. Throws IoError when the file
// cannot be read, ConfigError naming the file, line and column of the first bad field.
void readGamesCsv(const std::string& path, SavedGames& into);

// What run.json records of a run: enough to schedule it again.
struct ArenaRunFile {
  std::vector<std::string> agents;
  std::vector<std::string> scenarios;  // as given on the command line (names or files)
  int rounds = 0;
  uint64_t seed = 0;
};

// Writes run.json durably into `dir`.
void writeRunFile(const std::string& dir, const ArenaRunFile& run);

// Reads `dir`/run.json; throws IoError or ConfigError naming the file and the field.
ArenaRunFile readRunFile(const std::string& dir);

// Marks the games of `schedule` that `saved` holds as played, with their results. Each saved
// game must be one of the schedule's (same scenario name, round, agents and dice seed) and
// appear once; throws ConfigError naming the row otherwise. Returns the number marked.
int markSavedGames(const SavedGames& saved, const arena::ArenaLineup& lineup,
                   std::vector<arena::ArenaGame>& schedule);

}  // namespace morne::arena
