#include "arena/report.h"

#include <cmath>
#include <filesystem>

#include "arena/report_forms.h"
#include "core/number_text.h"
#include "env/io/durable_file.h"

namespace morne::arena {

// An interval bound: fixed decimals, or "-inf"/"+inf" when the interval is open.
std::string bound(double v, int digits) {
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  return core::fixedText(v, digits);
}

std::string intervalText(double lo, double hi, int digits) {
  return "[" + bound(lo, digits) + ", " + bound(hi, digits) + "]";
}

std::string wdl(const arena::WinDrawLoss& r) {
  return std::to_string(r.wins) + "/" + std::to_string(r.draws) + "/" + std::to_string(r.losses);
}

bool hasElo(const arena::ArenaStats& st) { return !st.elo.rating.empty(); }

void writeArenaReports(const std::string& dir, const arena::ArenaLineup& lineup,
                       const std::vector<arena::ArenaStats>& scopes) {
  const std::filesystem::path d(dir);
  env::writeFileDurably((d / "ratings.csv").string(), ratingsCsv(lineup, scopes));
  env::writeFileDurably((d / "pairs.csv").string(), pairsCsv(lineup, scopes));
  env::writeFileDurably((d / "summary.json").string(), summaryJson(lineup, scopes));
  env::writeFileDurably((d / "elo.svg").string(), eloSvg(lineup, scopes));
}

}  // namespace morne::arena
