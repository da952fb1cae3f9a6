#pragma once
// The position archive of self-play (Go-Exploit): each game gives one position drawn uniformly
// from its decisions, saved beside its shards as PREFIX.positions.json; later self-play starts a
// share of its games from archived positions instead of the scenario's start, so that it visits
// the middle and the end of games more often than from the start alone.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "env/game_state.h"

namespace morne::training {

// The file ending of an archive in a data folder.
inline constexpr const char* kPositionsSuffix = ".positions.json";
// The most recent archived positions a self-play run starts from, at most.
inline constexpr size_t kMostStarts = 20000;

// Writes `positions` (states of one scenario) to `path` durably (a temporary file, synced and
// renamed), as {"format": "morne-positions/1", "scenario": NAME, "positions": [state...]}.
// Throws IoError.
void writePositionArchive(const std::string& path, std::span<const env::GameState> positions);

// The positions of the archive `path`, each validated for `sc` (as readPositionArchives()
// does). Throws ConfigError naming the file (and the position) when it is not an archive of
// `sc`, is nested deeper than env::kMaxJsonNesting, or holds an invalid position; IoError when
// it cannot be read.
std::vector<env::GameState> readPositionArchive(const env::Scenario& sc, const std::string& path);

struct ArchivedPositions {
  std::vector<env::GameState> positions;
  int files = 0;  // archives read
  // One line per archive or position that could not be used ("FILE: reason"); the files are
  // left where they are.
  std::vector<std::string> problems;
};

// The positions of the archives in `dirs` (oldest folder first), the most recent `most` of
// them, each validated as `set_state` validates a state (env/io/state_json.h) for the scenario
// `sc`. An archive of another scenario, a damaged file or an invalid position is skipped and
// reported in `problems`, never a crash.
ArchivedPositions readPositionArchives(const env::Scenario& sc,
                                       const std::vector<std::string>& dirs, size_t most);

}  // namespace morne::training
