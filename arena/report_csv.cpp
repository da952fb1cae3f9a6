// ratings.csv and pairs.csv of an arena folder (docs/arena.md).

#include <cmath>

#include "arena/report_forms.h"
#include "arena/results.h"
#include "core/number_text.h"

namespace morne::arena {

namespace {

// A bound in a CSV cell: empty when the interval is open on that side.
std::string csvBound(double v) { return std::isinf(v) ? "" : core::fixedText(v, 1); }

}  // namespace

using arena::ArenaLineup;
using arena::ArenaStats;
using arena::WinDrawLoss;

std::string ratingsCsv(const ArenaLineup& lineup, const std::vector<ArenaStats>& scopes) {
  std::string out =
      "scope,agent,elo,elo_low,elo_high,games,wins,draws,losses,score,mean_plies,ms_per_decision,"
      "steps,reversals,revisits\n";
  for (const ArenaStats& st : scopes) {
    for (size_t a = 0; a < lineup.agents.size(); ++a) {
      const arena::AgentRecord& r = st.agents[a];
      const bool elo = hasElo(st);
      out += st.scope + "," + csvQuote(lineup.agents[a]) + "," +
             (elo ? core::fixedText(st.elo.rating[a], 1) + "," + csvBound(st.elo.low[a]) + "," +
                        csvBound(st.elo.high[a])
                  : std::string(",,")) +
             "," + std::to_string(r.results.games()) + "," + std::to_string(r.results.wins) + "," +
             std::to_string(r.results.draws) + "," + std::to_string(r.results.losses) + "," +
             core::fixedText(r.results.score(), 4) + "," + core::fixedText(r.mean_plies, 1) + "," +
             core::fixedText(1000 * r.seconds_per_decision, 4) + "," + stepColumns(r.steps) + "\n";
    }
  }
  return out;
}

std::string pairsCsv(const ArenaLineup& lineup, const std::vector<ArenaStats>& scopes) {
  std::string out = "scope,agent,opponent,agent_side,wins,draws,losses\n";
  for (const ArenaStats& st : scopes) {
    for (const arena::PairRecord& p : st.pairs) {
      const std::string a = csvQuote(lineup.agents[static_cast<size_t>(p.a)]);
      const std::string b = csvQuote(lineup.agents[static_cast<size_t>(p.b)]);
      for (const auto& [side, r] :
           {std::pair{"blue", p.a_as_blue}, std::pair{"orange", p.a_as_orange}}) {
        out += st.scope + "," + a + "," + b + "," + side + "," + std::to_string(r.wins) + "," +
               std::to_string(r.draws) + "," + std::to_string(r.losses) + "\n";
      }
    }
  }
  return out;
}

}  // namespace morne::arena
