#include "cli/arena_report.h"

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "env/durable_file.h"
#include "env/error.h"
#include "env/rules.h"

namespace morne::cli {

namespace {

using agents::ArenaConfig;
using agents::ArenaStats;
using agents::WinDrawLoss;

std::string csvQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string fixed(double v, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << v;
  return o.str();
}

std::string wdl(const WinDrawLoss& r) {
  return std::to_string(r.wins) + "/" + std::to_string(r.draws) + "/" + std::to_string(r.losses);
}

std::string stepColumns(const agents::StepCounts& c) {
  return std::to_string(c.steps) + "," + std::to_string(c.reversals) + "," +
         std::to_string(c.revisits);
}

bool hasElo(const ArenaStats& st) { return !st.elo.rating.empty(); }

nlohmann::json wdlJson(const WinDrawLoss& r) {
  return {{"wins", r.wins}, {"draws", r.draws}, {"losses", r.losses}, {"score", r.score()}};
}

std::string ratingsCsv(const ArenaConfig& config, const std::vector<ArenaStats>& scopes) {
  std::string out =
      "scope,agent,elo,elo_low,elo_high,games,wins,draws,losses,score,mean_plies,ms_per_decision,"
      "steps,reversals,revisits\n";
  for (const ArenaStats& st : scopes) {
    for (size_t a = 0; a < config.agents.size(); ++a) {
      const agents::AgentRecord& r = st.agents[a];
      const bool elo = hasElo(st);
      out +=
          st.scope + "," + csvQuote(config.agents[a]) + "," +
          (elo ? fixed(st.elo.rating[a], 1) + "," + fixed(st.elo.rating[a] - st.elo.margin[a], 1) +
                     "," + fixed(st.elo.rating[a] + st.elo.margin[a], 1)
               : std::string(",,")) +
          "," + std::to_string(r.results.games()) + "," + std::to_string(r.results.wins) + "," +
          std::to_string(r.results.draws) + "," + std::to_string(r.results.losses) + "," +
          fixed(r.results.score(), 4) + "," + fixed(r.mean_plies, 1) + "," +
          fixed(1000 * r.seconds_per_decision, 4) + "," + stepColumns(r.steps) + "\n";
    }
  }
  return out;
}

std::string pairsCsv(const ArenaConfig& config, const std::vector<ArenaStats>& scopes) {
  std::string out = "scope,agent,opponent,agent_side,wins,draws,losses\n";
  for (const ArenaStats& st : scopes) {
    for (const agents::PairRecord& p : st.pairs) {
      const std::string a = csvQuote(config.agents[static_cast<size_t>(p.a)]);
      const std::string b = csvQuote(config.agents[static_cast<size_t>(p.b)]);
      for (const auto& [side, r] :
           {std::pair{"blue", p.a_as_blue}, std::pair{"orange", p.a_as_orange}}) {
        out += st.scope + "," + a + "," + b + "," + side + "," + std::to_string(r.wins) + "," +
               std::to_string(r.draws) + "," + std::to_string(r.losses) + "\n";
      }
    }
  }
  return out;
}

std::string summaryJson(const ArenaConfig& config, const std::vector<ArenaStats>& scopes) {
  nlohmann::json j;
  j["format"] = "morne-arena/1";
  j["agents"] = config.agents;
  j["scenarios"] = nlohmann::json::array();
  for (const auto& sc : config.scenarios) j["scenarios"].push_back(sc->name());
  j["rounds"] = config.rounds;
  j["seed"] = config.seed;
  j["scopes"] = nlohmann::json::array();
  for (const ArenaStats& st : scopes) {
    nlohmann::json s = {{"scope", st.scope}, {"games", st.games}, {"blue", wdlJson(st.blue)}};
    if (hasElo(st)) {
      s["side_advantage"] = {{"elo", st.elo.side}, {"margin95", st.elo.side_margin}};
      s["elo_converged"] = st.elo.converged;
    }
    s["agents"] = nlohmann::json::array();
    for (size_t a = 0; a < config.agents.size(); ++a) {
      const agents::AgentRecord& r = st.agents[a];
      nlohmann::json aj = {{"spec", config.agents[a]},
                           {"results", wdlJson(r.results)},
                           {"mean_plies", r.mean_plies},
                           {"ms_per_decision", 1000 * r.seconds_per_decision},
                           {"steps", r.steps.steps},
                           {"reversals", r.steps.reversals},
                           {"revisits", r.steps.revisits}};
      if (hasElo(st)) aj["elo"] = {{"rating", st.elo.rating[a]}, {"margin95", st.elo.margin[a]}};
      s["agents"].push_back(aj);
    }
    s["pairs"] = nlohmann::json::array();
    for (const agents::PairRecord& p : st.pairs) {
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

// A horizontal bar chart: one panel per scope, one row per agent, the rating as a dot with its
// 95% interval as a line, a vertical axis at 0 (the anchor).
std::string eloSvg(const ArenaConfig& config, const std::vector<ArenaStats>& scopes) {
  double lo = -50, hi = 50;
  for (const ArenaStats& st : scopes) {
    if (!hasElo(st)) continue;
    for (size_t a = 0; a < config.agents.size(); ++a) {
      lo = std::min(lo, st.elo.rating[a] - st.elo.margin[a]);
      hi = std::max(hi, st.elo.rating[a] + st.elo.margin[a]);
    }
  }
  const double pad = 0.05 * (hi - lo);
  lo -= pad;
  hi += pad;
  const int label_w = 260, plot_w = 460, row_h = 22, width = label_w + plot_w + 110;
  auto x = [&](double elo) { return label_w + (elo - lo) / (hi - lo) * plot_w; };
  std::ostringstream body;
  int y = 30;
  for (const ArenaStats& st : scopes) {
    if (!hasElo(st)) continue;
    body << "<text x=\"10\" y=\"" << y << "\" font-weight=\"bold\">" << xmlEscape(st.scope) << " ("
         << st.games << " games, side advantage " << fixed(st.elo.side, 0) << " \xC2\xB1 "
         << fixed(st.elo.side_margin, 0) << ")</text>\n";
    y += 8;
    const int top = y;
    for (size_t a = 0; a < config.agents.size(); ++a) {
      y += row_h;
      const double r = st.elo.rating[a], m = st.elo.margin[a];
      body << "<text x=\"10\" y=\"" << y + 4 << "\">" << xmlEscape(config.agents[a]) << "</text>\n"
           << "<line x1=\"" << fixed(x(r - m), 1) << "\" y1=\"" << y << "\" x2=\""
           << fixed(x(r + m), 1) << "\" y2=\"" << y
           << "\" stroke=\"#4a6fa5\" stroke-width=\"3\"/>\n"
           << "<circle cx=\"" << fixed(x(r), 1) << "\" cy=\"" << y
           << "\" r=\"5\" fill=\"#1d3557\"/>\n"
           << "<text x=\"" << fixed(x(r + m) + 6, 1) << "\" y=\"" << y + 4 << "\" font-size=\"11\">"
           << (a == 0 ? std::string("0 (anchor)") : fixed(r, 0) + " \xC2\xB1 " + fixed(m, 0))
           << "</text>\n";
    }
    body << "<line x1=\"" << fixed(x(0), 1) << "\" y1=\"" << top << "\" x2=\"" << fixed(x(0), 1)
         << "\" y2=\"" << y + 10 << "\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n";
    y += 36;
  }
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y
      << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"16\" font-size=\"11\" fill=\"#555\">Elo relative to "
      << xmlEscape(config.agents[0]) << ", 95% intervals; axis " << fixed(lo, 0) << " .. "
      << fixed(hi, 0) << "</text>\n"
      << body.str() << "</svg>\n";
  return svg.str();
}

}  // namespace

std::string gamesCsvHeader() {
  return "scenario,round,seed,blue,orange,winner,blue_vp,orange_vp,level,plies,blue_decisions,"
         "orange_decisions,blue_seconds,orange_seconds,blue_steps,blue_reversals,blue_revisits,"
         "orange_steps,orange_reversals,orange_revisits";
}

std::string gamesCsvRow(const ArenaConfig& config, const agents::ArenaGame& g) {
  const char* winner = g.result.winner == env::kNoSide ? "draw"
                       : g.result.winner == 0          ? "blue"
                                                       : "orange";
  return config.scenarios[static_cast<size_t>(g.scenario)]->name() + "," + std::to_string(g.round) +
         "," + std::to_string(g.seed) + "," + csvQuote(config.agents[static_cast<size_t>(g.blue)]) +
         "," + csvQuote(config.agents[static_cast<size_t>(g.orange)]) + "," + winner + "," +
         std::to_string(g.result.vp[0]) + "," + std::to_string(g.result.vp[1]) + "," +
         std::to_string(g.result.level) + "," + std::to_string(g.plies) + "," +
         std::to_string(g.decisions[0]) + "," + std::to_string(g.decisions[1]) + "," +
         fixed(g.decision_seconds[0], 4) + "," + fixed(g.decision_seconds[1], 4) + "," +
         stepColumns(g.steps[0]) + "," + stepColumns(g.steps[1]);
}

void printArenaStats(std::ostream& out, const ArenaConfig& config, const ArenaStats& st) {
  out << "== " << st.scope << ": " << st.games << " games; blue won/drew/lost " << wdl(st.blue)
      << "\n";
  out << "  pairs (wins/draws/losses of the first agent, by the side it played):\n";
  for (const agents::PairRecord& p : st.pairs) {
    out << "    " << config.agents[static_cast<size_t>(p.a)] << " vs "
        << config.agents[static_cast<size_t>(p.b)] << ": " << wdl(p.total()) << " (score "
        << fixed(100 * p.total().score(), 1) << "%; as blue " << wdl(p.a_as_blue) << ", as orange "
        << wdl(p.a_as_orange) << ")\n";
    const agents::DuplicateRecord& d = p.duplicate;
    if (d.rounds > 0) {
      out << "      duplicate rounds: " << d.won << " won, " << d.split << " split, " << d.lost
          << " lost; net " << (d.mean >= 0 ? "+" : "") << fixed(d.mean, 3) << " \xC2\xB1 "
          << fixed(d.margin95, 3) << " a round\n";
    }
  }
  out << "  agents:\n";
  for (size_t a = 0; a < config.agents.size(); ++a) {
    const agents::AgentRecord& r = st.agents[a];
    out << "    " << std::left << std::setw(36) << config.agents[a] << std::right;
    if (hasElo(st)) {
      const std::string interval = a == 0 ? "(anchor)"
                                          : "[" + fixed(st.elo.rating[a] - st.elo.margin[a], 1) +
                                                ", " +
                                                fixed(st.elo.rating[a] + st.elo.margin[a], 1) + "]";
      out << " Elo " << std::setw(7) << fixed(st.elo.rating[a], 1) << " " << std::left
          << std::setw(16) << interval << std::right;
    }
    out << "  score " << fixed(100 * r.results.score(), 1) << "%  " << fixed(r.mean_plies, 0)
        << " plies/game  " << fixed(1000 * r.seconds_per_decision, 3) << " ms/decision  "
        << r.steps.reversals << " reversals, " << r.steps.revisits << " revisits in "
        << r.steps.steps << " steps\n";
  }
  if (hasElo(st)) {
    out << "  side advantage (blue): " << fixed(st.elo.side, 1) << " \xC2\xB1 "
        << fixed(st.elo.side_margin, 1) << " Elo; ratings relative to " << config.agents[0]
        << ", 95% intervals" << (st.elo.converged ? "" : " (fit did not converge)") << "\n";
  }
}

void writeArenaReports(const std::string& dir, const ArenaConfig& config,
                       const std::vector<ArenaStats>& scopes) {
  const std::filesystem::path d(dir);
  env::writeFileDurably((d / "ratings.csv").string(), ratingsCsv(config, scopes));
  env::writeFileDurably((d / "pairs.csv").string(), pairsCsv(config, scopes));
  env::writeFileDurably((d / "summary.json").string(), summaryJson(config, scopes));
  env::writeFileDurably((d / "elo.svg").string(), eloSvg(config, scopes));
}

}  // namespace morne::cli
