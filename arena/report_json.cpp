// summary.json of an arena folder (docs/arena.md).

#include <cmath>
#include <nlohmann/json.hpp>

#include "arena/report_forms.h"

namespace morne::arena {

namespace {

using arena::ArenaLineup;
using arena::ArenaStats;
using arena::WinDrawLoss;

// A bound for JSON: a number, or null when the interval is open.
nlohmann::json boundJson(double v) {
  return std::isinf(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}

nlohmann::json wdlJson(const WinDrawLoss& r) {
  return {{"wins", r.wins}, {"draws", r.draws}, {"losses", r.losses}, {"score", r.score()}};
}

}  // namespace

std::string summaryJson(const ArenaLineup& lineup, const std::vector<ArenaStats>& scopes) {
  nlohmann::json j;
  j["format"] = "morne-arena/2";
  j["agents"] = lineup.agents;
  j["scenarios"] = lineup.scenarios;
  if (lineup.rounds > 0) {  // unknown when several runs are merged
    j["rounds"] = lineup.rounds;
    j["seed"] = lineup.seed;
  }
  j["scopes"] = nlohmann::json::array();
  for (const ArenaStats& st : scopes) {
    nlohmann::json s = {{"scope", st.scope}, {"games", st.games}, {"blue", wdlJson(st.blue)}};
    if (hasElo(st)) {
      s["side_advantage"] = {{"elo", st.elo.side},
                             {"low95", boundJson(st.elo.side_low)},
                             {"high95", boundJson(st.elo.side_high)}};
      s["elo_converged"] = st.elo.converged;
      s["elo_prior_draws"] = st.elo.prior_draws;
    }
    s["agents"] = nlohmann::json::array();
    for (size_t a = 0; a < lineup.agents.size(); ++a) {
      const arena::AgentRecord& r = st.agents[a];
      nlohmann::json aj = {
          {"spec", lineup.agents[a]},    {"results", wdlJson(r.results)},
          {"mean_plies", r.mean_plies},  {"ms_per_decision", 1000 * r.seconds_per_decision},
          {"steps", r.steps.steps},      {"reversals", r.steps.reversals},
          {"revisits", r.steps.revisits}};
      if (hasElo(st)) {
        aj["elo"] = {{"rating", st.elo.rating[a]},
                     {"low95", boundJson(st.elo.low[a])},
                     {"high95", boundJson(st.elo.high[a])}};
      }
      s["agents"].push_back(aj);
    }
    s["pairs"] = nlohmann::json::array();
    for (const arena::PairRecord& p : st.pairs) {
      s["pairs"].push_back({{"agent", p.a},
                            {"opponent", p.b},
                            {"as_blue", wdlJson(p.a_as_blue)},
                            {"as_orange", wdlJson(p.a_as_orange)},
                            {"total", wdlJson(p.total())},
                            {"duplicate",
                             {{"rounds", p.duplicate.rounds},
                              {"won", p.duplicate.won},
                              {"split", p.duplicate.split},
                              {"lost", p.duplicate.lost},
                              {"mean", p.duplicate.mean},
                              {"margin95", p.duplicate.margin95}}}});
    }
    j["scopes"].push_back(s);
  }
  return j.dump(2) + "\n";
}

}  // namespace morne::arena
