#include "arena/stats.h"

#include <cmath>
#include <map>
#include <tuple>

namespace morne::arena {

namespace {

void record(WinDrawLoss& r, int winner, int side) {
  if (winner == env::kNoSide)
    ++r.draws;
  else if (winner == side)
    ++r.wins;
  else
    ++r.losses;
}

}  // namespace

WinDrawLoss PairRecord::total() const {
  return {a_as_blue.wins + a_as_orange.wins, a_as_blue.draws + a_as_orange.draws,
          a_as_blue.losses + a_as_orange.losses};
}

ArenaLineup lineupOf(const ArenaConfig& config) {
  ArenaLineup lineup{config.agents, {}, config.rounds, config.seed};
  for (const auto& sc : config.scenarios) lineup.scenarios.push_back(sc->name());
  return lineup;
}

ArenaStats arenaStats(const ArenaLineup& lineup, const std::vector<ArenaGame>& games,
                      int scenario) {
  const int n = static_cast<int>(lineup.agents.size());
  ArenaStats st;
  st.scope = scenario < 0 ? "all" : lineup.scenarios[static_cast<size_t>(scenario)];
  st.agents.resize(static_cast<size_t>(n));
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) st.pairs.push_back({a, b, {}, {}, {}});
  }
  auto pairIndex = [n](int a, int b) { return a * n - a * (a + 1) / 2 + (b - a - 1); };  // a < b

  std::vector<EloGame> elo_games;
  std::vector<double> plies(static_cast<size_t>(n), 0.0), seconds(static_cast<size_t>(n), 0.0);
  for (const ArenaGame& g : games) {
    if (!g.played || (scenario >= 0 && g.scenario != scenario)) continue;
    ++st.games;
    const int winner = g.result.winner;
    record(st.blue, winner, 0);
    const int a = std::min(g.blue, g.orange), b = std::max(g.blue, g.orange);
    PairRecord& p = st.pairs[static_cast<size_t>(pairIndex(a, b))];
    record(g.blue == a ? p.a_as_blue : p.a_as_orange, winner, g.blue == a ? 0 : 1);
    for (int side = 0; side < env::kNumSides; ++side) {
      const int agent = side == 0 ? g.blue : g.orange;
      AgentRecord& r = st.agents[static_cast<size_t>(agent)];
      record(r.results, winner, side);
      plies[static_cast<size_t>(agent)] += g.plies;
      seconds[static_cast<size_t>(agent)] += g.decision_seconds[static_cast<size_t>(side)];
      r.decisions += g.decisions[static_cast<size_t>(side)];
      const agents::StepCounts& c = g.steps[static_cast<size_t>(side)];
      r.steps.steps += c.steps;
      r.steps.reversals += c.reversals;
      r.steps.revisits += c.revisits;
    }
    elo_games.push_back({g.blue, g.orange, winner == env::kNoSide ? 0.5 : winner == 0 ? 1.0 : 0.0});
  }
  for (int a = 0; a < n; ++a) {
    AgentRecord& r = st.agents[static_cast<size_t>(a)];
    if (r.results.games()) r.mean_plies = plies[static_cast<size_t>(a)] / r.results.games();
    if (r.decisions) r.seconds_per_decision = seconds[static_cast<size_t>(a)] / r.decisions;
  }
  // Duplicate rounds: the two games of a round share scenario, seed and agents, sides swapped.
  // Games are matched in order within each such group (merged runs may repeat a seed).
  std::vector<std::vector<double>> nets(st.pairs.size());
  std::map<std::tuple<int, uint64_t, int, int>, std::vector<const ArenaGame*>> waiting;
  for (const ArenaGame& g : games) {
    if (!g.played || (scenario >= 0 && g.scenario != scenario)) continue;
    auto& mirror = waiting[{g.scenario, g.seed, g.orange, g.blue}];
    if (mirror.empty()) {
      waiting[{g.scenario, g.seed, g.blue, g.orange}].push_back(&g);
      continue;
    }
    const ArenaGame& g1 = *mirror.front();
    mirror.erase(mirror.begin());
    const int a = std::min(g.blue, g.orange), b = std::max(g.blue, g.orange);
    auto points = [a](const ArenaGame& x) {
      const int side = x.blue == a ? 0 : 1;
      return x.result.winner == env::kNoSide ? 0.5 : x.result.winner == side ? 1.0 : 0.0;
    };
    nets[static_cast<size_t>(pairIndex(a, b))].push_back(points(g1) + points(g) - 1);
  }
  for (size_t p = 0; p < nets.size(); ++p) {
    DuplicateRecord& d = st.pairs[p].duplicate;
    const std::vector<double>& x = nets[p];
    d.rounds = static_cast<int>(x.size());
    if (x.empty()) continue;
    double sum = 0, sum2 = 0;
    for (double v : x) {
      sum += v;
      sum2 += v * v;
      d.won += v > 0;
      d.split += v == 0;
      d.lost += v < 0;
    }
    d.mean = sum / d.rounds;
    const double variance = d.rounds > 1 ? (sum2 - d.rounds * d.mean * d.mean) / (d.rounds - 1) : 0;
    d.margin95 = 1.959963984540054 * std::sqrt(std::max(0.0, variance) / d.rounds);
  }

  bool everyone_played = true;
  for (const AgentRecord& r : st.agents) everyone_played &= r.results.games() > 0;
  if (everyone_played) st.elo = fitElo(n, elo_games, 0, 1.0);
  return st;
}

std::vector<ArenaStats> arenaScopes(const ArenaLineup& lineup,
                                    const std::vector<ArenaGame>& games) {
  std::vector<ArenaStats> scopes;
  for (int sc = 0; sc < static_cast<int>(lineup.scenarios.size()); ++sc)
    scopes.push_back(arenaStats(lineup, games, sc));
  if (lineup.scenarios.size() > 1) scopes.push_back(arenaStats(lineup, games, -1));
  return scopes;
}

}  // namespace morne::arena
