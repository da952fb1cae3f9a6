#pragma once
// The report forms of `morne arena` (cli/arena_report.h), one file each: text tables
// (arena_report_text.cpp), ratings.csv and pairs.csv (arena_report_csv.cpp), summary.json
// (arena_report_json.cpp), elo.svg (arena_report_svg.cpp), and the number forms they share
// (arena_report.cpp). Internal to cli/.

#include <string>
#include <vector>

#include "agents/arena.h"
#include "agents/arena_stats.h"

namespace morne::cli {

// ratings.csv and pairs.csv: one row per scope and agent, or scope and pair.
std::string ratingsCsv(const agents::ArenaLineup& lineup,
                       const std::vector<agents::ArenaStats>& scopes);
std::string pairsCsv(const agents::ArenaLineup& lineup,
                     const std::vector<agents::ArenaStats>& scopes);

// summary.json: every scope's statistics (format morne-arena/2, docs/arena.md).
std::string summaryJson(const agents::ArenaLineup& lineup,
                        const std::vector<agents::ArenaStats>& scopes);

// elo.svg: a horizontal interval chart, one panel per scope, one row per agent.
std::string eloSvg(const agents::ArenaLineup& lineup,
                   const std::vector<agents::ArenaStats>& scopes);

// An interval bound: fixed decimals, or "-inf"/"+inf" when the interval is open.
std::string bound(double v, int digits);
// "[lo, hi]" with bound().
std::string intervalText(double lo, double hi, int digits);
// "wins/draws/losses".
std::string wdl(const agents::WinDrawLoss& r);
// Whether the scope has ratings (every agent played).
bool hasElo(const agents::ArenaStats& st);

}  // namespace morne::cli
