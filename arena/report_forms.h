#pragma once
// The report forms of `morne arena` (arena/report.h), one file each: text tables
// (report_text.cpp), ratings.csv and pairs.csv (report_csv.cpp), summary.json
// (report_json.cpp), elo.svg (report_svg.cpp), and the number forms they share (report.cpp).
// Internal to arena/.

#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/stats.h"

namespace morne::arena {

// ratings.csv and pairs.csv: one row per scope and agent, or scope and pair.
std::string ratingsCsv(const arena::ArenaLineup& lineup,
                       const std::vector<arena::ArenaStats>& scopes);
std::string pairsCsv(const arena::ArenaLineup& lineup,
                     const std::vector<arena::ArenaStats>& scopes);

// summary.json: every scope's statistics (format morne-arena/2, docs/arena.md).
std::string summaryJson(const arena::ArenaLineup& lineup,
                        const std::vector<arena::ArenaStats>& scopes);

// elo.svg: a horizontal interval chart, one panel per scope, one row per agent.
std::string eloSvg(const arena::ArenaLineup& lineup, const std::vector<arena::ArenaStats>& scopes);

// An interval bound: fixed decimals, or "-inf"/"+inf" when the interval is open.
std::string bound(double v, int digits);
// "[lo, hi]" with bound().
std::string intervalText(double lo, double hi, int digits);
// "wins/draws/losses".
std::string wdl(const arena::WinDrawLoss& r);
// Whether the scope has ratings (every agent played).
bool hasElo(const arena::ArenaStats& st);

}  // namespace morne::arena
