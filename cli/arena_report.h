#pragma once
// How `morne arena` shows and stores its results: text tables for the terminal, and the files
// of an output folder (games.csv streamed while the games finish; ratings.csv, pairs.csv,
// summary.json and elo.svg at the end). Formats are described in docs/arena.md.

#include <iosfwd>
#include <string>
#include <vector>

#include "agents/arena.h"
#include "agents/arena_stats.h"

namespace morne::cli {

// The header line and one row of games.csv.
std::string gamesCsvHeader();
std::string gamesCsvRow(const agents::ArenaConfig& config, const agents::ArenaGame& g);

// Human-readable tables of one scope: pairs by side, ratings, side advantage.
void printArenaStats(std::ostream& out, const agents::ArenaConfig& config, const agents::ArenaStats& st);

// Writes ratings.csv, pairs.csv, summary.json and elo.svg into `dir` (which exists). Each file
// is written to a temporary name and renamed, so an interruption never leaves half a file.
void writeArenaReports(const std::string& dir, const agents::ArenaConfig& config,
                       const std::vector<agents::ArenaStats>& scopes);

}  // namespace morne::cli
