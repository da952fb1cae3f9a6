#include "cli/arena_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "cli/arena_results.h"
#include "cli/number_text.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/rules.h"

namespace morne::cli {

namespace {

using agents::ArenaLineup;
using agents::ArenaStats;
using agents::WinDrawLoss;

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

// An interval bound: fixed decimals, or "-inf"/"+inf" when the interval is open.
std::string bound(double v, int digits) {
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  return fixedText(v, digits);
}

// A bound for JSON: a number, or null when the interval is open.
nlohmann::json boundJson(double v) {
  return std::isinf(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}

std::string intervalText(double lo, double hi, int digits) {
  return "[" + bound(lo, digits) + ", " + bound(hi, digits) + "]";
}

std::string wdl(const WinDrawLoss& r) {
  return std::to_string(r.wins) + "/" + std::to_string(r.draws) + "/" + std::to_string(r.losses);
}

// A bound in a CSV cell: empty when the interval is open on that side.
std::string csvBound(double v) { return std::isinf(v) ? "" : fixedText(v, 1); }

bool hasElo(const ArenaStats& st) { return !st.elo.rating.empty(); }

nlohmann::json wdlJson(const WinDrawLoss& r) {
  return {{"wins", r.wins}, {"draws", r.draws}, {"losses", r.losses}, {"score", r.score()}};
}

std::string ratingsCsv(const ArenaLineup& lineup, const std::vector<ArenaStats>& scopes) {
  std::string out =
      "scope,agent,elo,elo_low,elo_high,games,wins,draws,losses,score,mean_plies,ms_per_decision,"
      "steps,reversals,revisits\n";
  for (const ArenaStats& st : scopes) {
    for (size_t a = 0; a < lineup.agents.size(); ++a) {
      const agents::AgentRecord& r = st.agents[a];
      const bool elo = hasElo(st);
      out += st.scope + "," + csvQuote(lineup.agents[a]) + "," +
             (elo ? fixedText(st.elo.rating[a], 1) + "," + csvBound(st.elo.low[a]) + "," +
                        csvBound(st.elo.high[a])
                  : std::string(",,")) +
             "," + std::to_string(r.results.games()) + "," + std::to_string(r.results.wins) + "," +
             std::to_string(r.results.draws) + "," + std::to_string(r.results.losses) + "," +
             fixedText(r.results.score(), 4) + "," + fixedText(r.mean_plies, 1) + "," +
             fixedText(1000 * r.seconds_per_decision, 4) + "," + stepColumns(r.steps) + "\n";
    }
  }
  return out;
}

std::string pairsCsv(const ArenaLineup& lineup, const std::vector<ArenaStats>& scopes) {
  std::string out = "scope,agent,opponent,agent_side,wins,draws,losses\n";
  for (const ArenaStats& st : scopes) {
    for (const agents::PairRecord& p : st.pairs) {
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
      const agents::AgentRecord& r = st.agents[a];
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

// A horizontal interval chart: one panel per scope, one row per agent, the rating as a dot and
// its 95% interval as a line (an arrow where it is open), a dashed line at 0 (the anchor), and
// an axis with ticks and a grid every 50, 100, 200 or 500 Elo. Value labels sit in a column of
// their own to the right of the plot, so they never cross the lines.
std::string eloSvg(const ArenaLineup& lineup, const std::vector<ArenaStats>& scopes) {
  double lo = -50, hi = 50;
  auto clampFinite = [](double v, double fallback) { return std::isinf(v) ? fallback : v; };
  for (const ArenaStats& st : scopes) {
    if (!hasElo(st)) continue;
    for (size_t a = 0; a < lineup.agents.size(); ++a) {
      lo = std::min({lo, st.elo.rating[a], clampFinite(st.elo.low[a], st.elo.rating[a])});
      hi = std::max({hi, st.elo.rating[a], clampFinite(st.elo.high[a], st.elo.rating[a])});
    }
  }
  double tick = 50;
  for (double t : {50.0, 100.0, 200.0, 500.0, 1000.0}) {
    tick = t;
    if ((hi - lo) / t <= 8) break;
  }
  lo = std::floor(lo / tick) * tick;
  hi = std::ceil(hi / tick) * tick;
  const int label_w = 260, plot_w = 460, row_h = 22, value_w = 170;
  const int width = label_w + plot_w + 20 + value_w;
  auto x = [&](double elo) {
    return label_w + (std::clamp(elo, lo, hi) - lo) / (hi - lo) * plot_w;
  };
  std::ostringstream body;
  int y = 30;
  for (const ArenaStats& st : scopes) {
    if (!hasElo(st)) continue;
    body << "<text x=\"10\" y=\"" << y << "\" font-weight=\"bold\">" << xmlEscape(st.scope) << " ("
         << st.games << " games, side advantage " << fixedText(st.elo.side, 0) << " "
         << intervalText(st.elo.side_low, st.elo.side_high, 0) << ")</text>\n";
    y += 8;
    const int top = y;
    const int bottom = top + row_h * static_cast<int>(lineup.agents.size()) + 10;
    for (double t = lo; t <= hi + 1e-9; t += tick) {  // grid and ticks
      body << "<line x1=\"" << fixedText(x(t), 1) << "\" y1=\"" << top << "\" x2=\""
           << fixedText(x(t), 1) << "\" y2=\"" << bottom << "\" stroke=\"#e4e4e4\"/>\n"
           << "<text x=\"" << fixedText(x(t), 1) << "\" y=\"" << bottom + 14
           << "\" font-size=\"10\" fill=\"#555\" text-anchor=\"middle\">" << fixedText(t, 0)
           << "</text>\n";
    }
    body << "<line x1=\"" << label_w << "\" y1=\"" << bottom << "\" x2=\"" << label_w + plot_w
         << "\" y2=\"" << bottom << "\" stroke=\"#555\"/>\n"
         << "<line x1=\"" << fixedText(x(0), 1) << "\" y1=\"" << top << "\" x2=\""
         << fixedText(x(0), 1) << "\" y2=\"" << bottom
         << "\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n";
    for (size_t a = 0; a < lineup.agents.size(); ++a) {
      y += row_h;
      const double r = st.elo.rating[a], l = st.elo.low[a], h = st.elo.high[a];
      body << "<text x=\"10\" y=\"" << y + 4 << "\">" << xmlEscape(lineup.agents[a]) << "</text>\n"
           << "<line x1=\"" << fixedText(x(l), 1) << "\" y1=\"" << y << "\" x2=\""
           << fixedText(x(h), 1) << "\" y2=\"" << y
           << "\" stroke=\"#4a6fa5\" stroke-width=\"3\"/>\n";
      for (double end : {l, h}) {
        if (!std::isinf(end) && end >= lo && end <= hi) continue;
        const double tip = x(end), back = end > r ? tip - 8 : tip + 8;  // open or off the axis
        body << "<polygon points=\"" << fixedText(tip, 1) << "," << y << " " << fixedText(back, 1)
             << "," << y - 5 << " " << fixedText(back, 1) << "," << y + 5
             << "\" fill=\"#4a6fa5\"/>\n";
      }
      body << "<circle cx=\"" << fixedText(x(r), 1) << "\" cy=\"" << y
           << "\" r=\"5\" fill=\"#1d3557\"/>\n"
           << "<text x=\"" << label_w + plot_w + 20 << "\" y=\"" << y + 4 << "\" font-size=\"11\">"
           << (a == 0 ? std::string("0 (anchor)") : fixedText(r, 0) + " " + intervalText(l, h, 0))
           << "</text>\n";
    }
    y = bottom + 44;
  }
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y
      << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"16\" font-size=\"11\" fill=\"#555\">Elo relative to "
      << xmlEscape(lineup.agents[0])
      << ", 95% profile-likelihood intervals (arrows: open or beyond the axis)</text>\n"
      << body.str() << "</svg>\n";
  return svg.str();
}

}  // namespace

void printArenaStats(std::ostream& out, const ArenaLineup& lineup, const ArenaStats& st) {
  out << "== " << st.scope << ": " << st.games << " games; blue won/drew/lost " << wdl(st.blue)
      << "\n";
  out << "  pairs (wins/draws/losses of the first agent, by the side it played):\n";
  for (const agents::PairRecord& p : st.pairs) {
    out << "    " << lineup.agents[static_cast<size_t>(p.a)] << " vs "
        << lineup.agents[static_cast<size_t>(p.b)] << ": " << wdl(p.total()) << " (score "
        << fixedText(100 * p.total().score(), 1) << "%; as blue " << wdl(p.a_as_blue)
        << ", as orange " << wdl(p.a_as_orange) << ")\n";
    const agents::DuplicateRecord& d = p.duplicate;
    if (d.rounds > 0) {
      out << "      duplicate rounds: " << d.won << " won, " << d.split << " split, " << d.lost
          << " lost; net " << (d.mean >= 0 ? "+" : "") << fixedText(d.mean, 3) << " \xC2\xB1 "
          << fixedText(d.margin95, 3) << " a round\n";
    }
  }
  out << "  agents:\n";
  for (size_t a = 0; a < lineup.agents.size(); ++a) {
    const agents::AgentRecord& r = st.agents[a];
    out << "    " << std::left << std::setw(36) << lineup.agents[a] << std::right;
    if (hasElo(st)) {
      const std::string interval =
          a == 0 ? "(anchor)" : intervalText(st.elo.low[a], st.elo.high[a], 1);
      out << " Elo " << std::setw(7) << fixedText(st.elo.rating[a], 1) << " " << std::left
          << std::setw(20) << interval << std::right;
    }
    out << "  score " << fixedText(100 * r.results.score(), 1) << "%  "
        << fixedText(r.mean_plies, 0) << " plies/game  "
        << fixedText(1000 * r.seconds_per_decision, 3) << " ms/decision  " << r.steps.reversals
        << " reversals, " << r.steps.revisits << " revisits in " << r.steps.steps << " steps\n";
  }
  if (hasElo(st)) {
    out << "  side advantage (blue): " << fixedText(st.elo.side, 1) << " "
        << intervalText(st.elo.side_low, st.elo.side_high, 1) << " Elo; ratings relative to "
        << lineup.agents[0] << ", 95% profile-likelihood intervals, prior "
        << shortText(st.elo.prior_draws) << " virtual draw per pair"
        << (st.elo.converged ? "" : " (fit did not converge)") << "\n";
  }
}

void writeArenaReports(const std::string& dir, const ArenaLineup& lineup,
                       const std::vector<ArenaStats>& scopes) {
  const std::filesystem::path d(dir);
  env::writeFileDurably((d / "ratings.csv").string(), ratingsCsv(lineup, scopes));
  env::writeFileDurably((d / "pairs.csv").string(), pairsCsv(lineup, scopes));
  env::writeFileDurably((d / "summary.json").string(), summaryJson(lineup, scopes));
  env::writeFileDurably((d / "elo.svg").string(), eloSvg(lineup, scopes));
}

}  // namespace morne::cli
