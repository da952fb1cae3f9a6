// The forms of a scenario analysis (arena/scenario_analysis.h): text, JSON and SVG.

#include <cmath>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "arena/elo.h"
#include "arena/report_forms.h"
#include "arena/scenario_analysis.h"
#include "core/line_chart.h"
#include "core/number_text.h"
#include "env/victory.h"

namespace morne::arena {

namespace {

using nlohmann::json;

std::string percent(double share) { return core::fixedText(100 * share, 1) + "%"; }

// Where the Elo interval is open the JSON holds null.
json boundJson(double v) { return std::abs(v) >= kEloBoundLimit ? json() : json(v); }

constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

}  // namespace

std::string analysisText(const ScenarioAnalysis& a) {
  std::ostringstream out;
  out << "scenario " << a.scenario << ", handicap "
      << (a.handicap == 0 ? std::string("none")
                          : env::halfVpText(std::abs(a.handicap)) + " VP to " +
                                (a.handicap > 0 ? "blue" : "orange"))
      << ", " << a.turns << " turns\n\n";
  out << "Balance, decisiveness and length (blue's share of decisive games, 95% interval):\n";
  for (const PairFigures& p : a.pairs) {
    out << "  " << p.agents.text() << ": " << p.games << " games, blue wins "
        << core::sideShareText(p.sides) << ", draws " << p.sides.draws << " ("
        << percent(p.games ? static_cast<double>(p.sides.draws) / p.games : 0)
        << "), minor victories " << p.minor << ", " << core::fixedText(p.mean_turns, 1)
        << " turns and " << core::fixedText(p.mean_plies, 0) << " plies a game\n";
  }
  bool skill = false;
  for (const PairFigures& p : a.pairs) skill = skill || !p.agents.self();
  if (skill) {
    out << "\nThe weight of skill (the first agent's score; a dice game scores near 50%):\n";
    for (const PairFigures& p : a.pairs) {
      if (p.agents.self() || p.games == 0) continue;
      out << "  " << p.agents.first << " against " << p.agents.second << ": " << p.first_wins << "-"
          << p.first_draws << "-" << p.first_losses << ", score " << percent(p.first_score)
          << ", Elo " << (p.elo >= 0 ? "+" : "") << core::fixedText(p.elo, 0) << " "
          << intervalText(p.elo_low, p.elo_high, 0) << "\n";
    }
  }
  out << "\nAfter each game turn (" << a.pooled_games
      << " games between equal agents): who leads by score, the mean margin (VP, + for blue)\n";
  out << "  turn  games   blue  orange  margin\n";
  for (const TurnFigures& t : a.by_turn) {
    char line[96];
    std::snprintf(line, sizeof line, "  %4d  %5d  %5.1f%%  %5.1f%%  %+6.2f\n", t.turn, t.games,
                  100 * t.blue_leads, 100 * t.orange_leads, t.mean_margin_half / 2);
    out << line;
  }
  out << "\nObjectives: the share of games each side holds them, after turns 1, "
      << (a.by_turn.size() + 1) / 2 << " and " << a.by_turn.size() << " (blue / orange)\n";
  for (const ObjectiveFigures& o : a.objectives) {
    if (o.blue.empty()) continue;
    out << "  " << o.hex << " (" << o.vp[0] << " VP to blue, " << o.vp[1] << " to orange):";
    for (size_t t : {size_t{0}, (o.blue.size() - 1) / 2, o.blue.size() - 1}) {
      if (t < o.blue.size()) out << "  " << percent(o.blue[t]) << " / " << percent(o.orange[t]);
    }
    out << "\n";
  }
  out << "\nLosses by unit type (mean combat value lost in a decisive game; " << a.decisive_games
      << " games):\n";
  for (const TypeLosses& l : a.losses) {
    out << "  " << l.type << ": winner " << core::fixedText(l.winner_lost, 2) << ", loser "
        << core::fixedText(l.loser_lost, 2) << "\n";
  }
  return out.str();
}

std::string analysisJson(const ScenarioAnalysis& a) {
  json j = {{"format", "morne-scenario-analysis/1"}, {"scenario", a.scenario},
            {"handicap_half", a.handicap},           {"turns", a.turns},
            {"pooled_games", a.pooled_games},        {"decisive_games", a.decisive_games}};
  j["pairs"] = json::array();
  for (const PairFigures& p : a.pairs) {
    json pair = {{"agents", p.agents.text()},  {"games", p.games},
                 {"blue_wins", p.sides.blue},  {"orange_wins", p.sides.orange},
                 {"draws", p.sides.draws},     {"blue_share", p.sides.share},
                 {"blue_low95", p.sides.low},  {"blue_high95", p.sides.high},
                 {"minor_victories", p.minor}, {"mean_turns", p.mean_turns},
                 {"mean_plies", p.mean_plies}};
    if (!p.agents.self()) {
      pair["first"] = {{"wins", p.first_wins},
                       {"draws", p.first_draws},
                       {"losses", p.first_losses},
                       {"score", p.first_score},
                       {"elo", p.elo},
                       {"elo_low95", boundJson(p.elo_low)},
                       {"elo_high95", boundJson(p.elo_high)}};
    }
    j["pairs"].push_back(pair);
  }
  j["by_turn"] = json::array();
  for (const TurnFigures& t : a.by_turn) {
    j["by_turn"].push_back({{"turn", t.turn},
                            {"games", t.games},
                            {"blue_leads", t.blue_leads},
                            {"orange_leads", t.orange_leads},
                            {"mean_margin_half", t.mean_margin_half}});
  }
  j["objectives"] = json::array();
  for (const ObjectiveFigures& o : a.objectives) {
    j["objectives"].push_back(
        {{"hex", o.hex}, {"vp", o.vp}, {"blue", o.blue}, {"orange", o.orange}});
  }
  j["losses"] = json::array();
  for (const TypeLosses& l : a.losses) {
    j["losses"].push_back(
        {{"type", l.type}, {"winner_lost", l.winner_lost}, {"loser_lost", l.loser_lost}});
  }
  return j.dump(2) + "\n";
}

std::string analysisSvg(const ScenarioAnalysis& a) {
  core::ChartPanel leads{
      a.scenario + ": who leads after each game turn (share of games)", "game turn", {}};
  core::ChartSeries blue{"blue leads", {}, "#1f5fbf"}, orange{"orange leads", {}, "#e07b00"};
  for (const TurnFigures& t : a.by_turn) {
    blue.points.push_back({static_cast<double>(t.turn), t.blue_leads});
    orange.points.push_back({static_cast<double>(t.turn), t.orange_leads});
  }
  leads.series = {blue, orange};
  core::ChartPanel held{"objectives held (blue solid, orange dashed)", "game turn", {}};
  for (size_t o = 0; o < a.objectives.size(); ++o) {
    const ObjectiveFigures& f = a.objectives[o];
    const std::string color = kPalette[o % std::size(kPalette)];
    core::ChartSeries b{f.hex + " blue", {}, color}, r{f.hex + " orange", {}, color, true};
    for (size_t t = 0; t < f.blue.size(); ++t) {
      b.points.push_back({static_cast<double>(t + 1), f.blue[t]});
      r.points.push_back({static_cast<double>(t + 1), f.orange[t]});
    }
    held.series.push_back(b);
    held.series.push_back(r);
  }
  return core::lineChartSvg({leads, held});
}

}  // namespace morne::arena
