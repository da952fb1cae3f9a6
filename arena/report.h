#pragma once
// How `morne arena` shows its results: text tables for the terminal, and the report files of
// an output folder (ratings.csv, pairs.csv, summary.json, elo.svg; games.csv and run.json are in
// arena/results.h). Formats are described in docs/arena.md.

#include <iosfwd>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/stats.h"

namespace morne::arena {

// Human-readable tables of one scope: pairs by side, ratings, side advantage.
void printArenaStats(std::ostream& out, const arena::ArenaLineup& lineup,
                     const arena::ArenaStats& st);

// Writes ratings.csv, pairs.csv, summary.json and elo.svg into `dir` (which exists). Each file
// is written to a temporary name and renamed, so an interruption never leaves half a file.
void writeArenaReports(const std::string& dir, const arena::ArenaLineup& lineup,
                       const std::vector<arena::ArenaStats>& scopes);

}  // namespace morne::arena
