#include "arena/scenario_analysis.h"

#include <algorithm>

#include "arena/elo.h"
#include "env/error.h"

namespace morne::arena {

namespace {

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The pair's figures from its games (all of the pair).
PairFigures pairFigures(const AgentPair& agents, const std::vector<const GameTrace*>& games) {
  PairFigures p;
  p.agents = agents;
  p.games = static_cast<int>(games.size());
  int blue = 0, orange = 0, draws = 0;
  std::vector<EloGame> elo;
  for (const GameTrace* g : games) {
    blue += g->winner == 0;
    orange += g->winner == 1;
    draws += g->winner == env::kNoSide;
    p.minor += g->level == 1;
    p.mean_plies += g->plies;
    p.mean_turns += static_cast<double>(g->margin_half.size());
    if (agents.self()) continue;
    // Player 0 is the first agent, 1 the second.
    const int first_side = g->swapped ? 1 : 0;
    if (g->winner == env::kNoSide) {
      ++p.first_draws;
    } else if (g->winner == first_side) {
      ++p.first_wins;
    } else {
      ++p.first_losses;
    }
    const double blue_score = g->winner == 0 ? 1 : g->winner == 1 ? 0 : 0.5;
    elo.push_back({g->swapped ? 1 : 0, g->swapped ? 0 : 1, blue_score});
  }
  p.sides = sideShare(blue, orange, draws);
  if (p.games > 0) {
    p.mean_plies /= p.games;
    p.mean_turns /= p.games;
  }
  if (!agents.self() && p.games > 0) {
    p.first_score = (p.first_wins + 0.5 * p.first_draws) / p.games;
    const EloFit fit = fitElo(2, elo, 1);
    p.elo = fit.rating[0];
    p.elo_low = fit.low[0];
    p.elo_high = fit.high[0];
  }
  return p;
}

}  // namespace

AgentPair parseAgentPair(const std::string& text) {
  AgentPair p;
  const size_t vs = text.find(" vs ");
  p.first = trimmed(text.substr(0, vs));
  if (vs != std::string::npos) {
    p.second = trimmed(text.substr(vs + 4));
    if (p.second.empty() || p.second.find(" vs ") != std::string::npos) {
      throw ConfigError("agent pair \"" + text + "\": give \"A\" (A plays itself) or \"A vs B\"");
    }
  }
  if (p.first.empty()) {
    throw ConfigError("agent pair \"" + text + "\": give \"A\" (A plays itself) or \"A vs B\"");
  }
  return p;
}

ScenarioAnalysis analyseGames(const env::Scenario& sc, const std::vector<AgentPair>& pairs,
                              const std::vector<GameTrace>& games) {
  ScenarioAnalysis a;
  a.scenario = sc.name();
  a.handicap = sc.balance().signedHalf();
  a.turns = sc.turns();
  const size_t objectives = sc.objectives().size();
  std::vector<std::vector<const GameTrace*>> by_pair(pairs.size());
  for (const GameTrace& g : games) {
    if (g.pair < 0 || static_cast<size_t>(g.pair) >= pairs.size()) {
      throw ConfigError("game " + std::to_string(g.game) + " names agent pair " +
                        std::to_string(g.pair) + " of " + std::to_string(pairs.size()));
    }
    if (g.margin_half.empty() || g.margin_half.size() > static_cast<size_t>(sc.turns()) ||
        g.holders.size() != g.margin_half.size() ||
        std::any_of(g.holders.begin(), g.holders.end(),
                    [&](const std::vector<int>& h) { return h.size() != objectives; })) {
      throw ConfigError("game " + std::to_string(g.game) + " of pair " + std::to_string(g.pair) +
                        ": its turns do not fit " + sc.name() + " (" + std::to_string(sc.turns()) +
                        " turns, " + std::to_string(objectives) + " objectives)");
    }
    by_pair[static_cast<size_t>(g.pair)].push_back(&g);
  }
  for (size_t i = 0; i < pairs.size(); ++i) a.pairs.push_back(pairFigures(pairs[i], by_pair[i]));

  // The pooled games: those between equal agents, or every game when no pair plays itself.
  const bool any_self =
      std::any_of(pairs.begin(), pairs.end(), [](const AgentPair& p) { return p.self(); });
  std::vector<const GameTrace*> pooled;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].self() || !any_self) {
      pooled.insert(pooled.end(), by_pair[i].begin(), by_pair[i].end());
    }
  }
  a.pooled_games = static_cast<int>(pooled.size());

  for (int t = 0; t < sc.turns(); ++t) {
    TurnFigures f;
    f.turn = t + 1;
    double margin = 0;
    for (const GameTrace* g : pooled) {
      if (static_cast<size_t>(t) >= g->margin_half.size()) continue;
      const int m = g->margin_half[static_cast<size_t>(t)];
      ++f.games;
      f.blue_leads += m > 0;
      f.orange_leads += m < 0;
      margin += m;
    }
    if (f.games == 0) break;
    f.blue_leads /= f.games;
    f.orange_leads /= f.games;
    f.mean_margin_half = margin / f.games;
    a.by_turn.push_back(f);
  }
  for (size_t o = 0; o < objectives; ++o) {
    ObjectiveFigures f;
    f.hex = sc.label(sc.objectives()[o].cell);
    f.vp = sc.objectives()[o].vp;
    for (const TurnFigures& turn : a.by_turn) {
      const size_t t = static_cast<size_t>(turn.turn - 1);
      int blue = 0, orange = 0;
      for (const GameTrace* g : pooled) {
        if (t >= g->holders.size()) continue;
        blue += g->holders[t][o] == 0;
        orange += g->holders[t][o] == 1;
      }
      f.blue.push_back(static_cast<double>(blue) / turn.games);
      f.orange.push_back(static_cast<double>(orange) / turn.games);
    }
    a.objectives.push_back(f);
  }

  std::array<bool, env::kNumUnitTypes> present = {};
  for (const env::UnitInfo& u : sc.units()) present[static_cast<size_t>(u.type)] = true;
  std::array<double, env::kNumUnitTypes> winner = {}, loser = {};
  for (const GameTrace* g : pooled) {
    if (g->winner == env::kNoSide) continue;
    ++a.decisive_games;
    for (size_t type = 0; type < env::kNumUnitTypes; ++type) {
      winner[type] += g->vc_lost[static_cast<size_t>(g->winner)][type];
      loser[type] += g->vc_lost[static_cast<size_t>(1 - g->winner)][type];
    }
  }
  for (size_t type = 0; type < env::kNumUnitTypes; ++type) {
    if (!present[type]) continue;
    TypeLosses l;
    l.type = std::string(env::unitTypeName(static_cast<env::UnitType>(type)));
    if (a.decisive_games > 0) {
      l.winner_lost = winner[type] / a.decisive_games;
      l.loser_lost = loser[type] / a.decisive_games;
    }
    a.losses.push_back(l);
  }
  return a;
}

}  // namespace morne::arena
