// The arena's text tables for the terminal (arena/report.h).

#include <iomanip>
#include <ostream>

#include "arena/report.h"
#include "arena/report_forms.h"
#include "core/number_text.h"

namespace morne::arena {

using arena::ArenaLineup;
using arena::ArenaStats;
using arena::WinDrawLoss;

void printArenaStats(std::ostream& out, const ArenaLineup& lineup, const ArenaStats& st) {
  out << "== " << st.scope << ": " << st.games << " games; blue won/drew/lost " << wdl(st.blue)
      << "\n";
  out << "  pairs (wins/draws/losses of the first agent, by the side it played):\n";
  for (const arena::PairRecord& p : st.pairs) {
    out << "    " << lineup.agents[static_cast<size_t>(p.a)] << " vs "
        << lineup.agents[static_cast<size_t>(p.b)] << ": " << wdl(p.total()) << " (score "
        << core::fixedText(100 * p.total().score(), 1) << "%; as blue " << wdl(p.a_as_blue)
        << ", as orange " << wdl(p.a_as_orange) << ")\n";
    const arena::DuplicateRecord& d = p.duplicate;
    if (d.rounds > 0) {
      out << "      duplicate rounds: " << d.won << " won, " << d.split << " split, " << d.lost
          << " lost; net " << (d.mean >= 0 ? "+" : "") << core::fixedText(d.mean, 3) << " \xC2\xB1 "
          << core::fixedText(d.margin95, 3) << " a round\n";
    }
  }
  out << "  agents:\n";
  for (size_t a = 0; a < lineup.agents.size(); ++a) {
    const arena::AgentRecord& r = st.agents[a];
    out << "    " << std::left << std::setw(36) << lineup.agents[a] << std::right;
    if (hasElo(st)) {
      const std::string interval =
          a == 0 ? "(anchor)" : intervalText(st.elo.low[a], st.elo.high[a], 1);
      out << " Elo " << std::setw(7) << core::fixedText(st.elo.rating[a], 1) << " " << std::left
          << std::setw(20) << interval << std::right;
    }
    out << "  score " << core::fixedText(100 * r.results.score(), 1) << "%  "
        << core::fixedText(r.mean_plies, 0) << " plies/game  "
        << core::fixedText(1000 * r.seconds_per_decision, 3) << " ms/decision  "
        << r.steps.reversals << " reversals, " << r.steps.revisits << " revisits in "
        << r.steps.steps << " steps\n";
  }
  if (hasElo(st)) {
    out << "  side advantage (blue): " << core::fixedText(st.elo.side, 1) << " "
        << intervalText(st.elo.side_low, st.elo.side_high, 1) << " Elo; ratings relative to "
        << lineup.agents[0] << ", 95% profile-likelihood intervals, prior "
        << core::shortText(st.elo.prior_draws) << " virtual draw per pair"
        << (st.elo.converged ? "" : " (fit did not converge)") << "\n";
  }
}

}  // namespace morne::arena
