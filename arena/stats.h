#pragma once
// What an arena run measured: win/draw/loss per pair and per side, per-agent averages and the
// Elo fit (arena/elo.h), for one scenario or for all of them together.

#include <cstdint>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/elo.h"

namespace morne::arena {

struct WinDrawLoss {
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int games() const { return wins + draws + losses; }
  double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.0; }
};

// The duplicate view of a pair: each round's two games (same dice, sides swapped) give `a` a
// net score (its points in both games, less 1) in -1 .. +1. Luck the two games share cancels
// out, so this is the sharpest comparison of two agents when one side wins most games.
struct DuplicateRecord {
  int rounds = 0;
  int won = 0;    // rounds with a net score above 0
  int split = 0;  // net 0
  int lost = 0;
  double mean = 0;      // mean net score per round
  double margin95 = 0;  // half-width of its 95% interval (normal approximation)
};

// Results of agent `a` against agent `b` (a < b), split by the side `a` played.
struct PairRecord {
  int a = 0;
  int b = 0;
  WinDrawLoss a_as_blue;
  WinDrawLoss a_as_orange;
  DuplicateRecord duplicate;
  WinDrawLoss total() const;
};

struct AgentRecord {
  WinDrawLoss results;
  double mean_plies = 0;            // length of its games
  double seconds_per_decision = 0;  // its own thinking time
  int decisions = 0;
  agents::StepCounts steps;  // its movement steps, reversals and revisits, all games
};

// Who played on what: what the statistics and reports need of a run, whether it was just
// played or read back from games.csv files (`morne arena rate`).
struct ArenaLineup {
  std::vector<std::string> agents;     // specs; the first is the Elo anchor
  std::vector<std::string> scenarios;  // names; ArenaGame::scenario indexes them
  int rounds = 0;                      // rounds of the run; 0 when several runs are merged
  uint64_t seed = 0;                   // base seed of the run (when rounds > 0)
};

// The lineup of a configured run.
ArenaLineup lineupOf(const ArenaConfig& config);

struct ArenaStats {
  std::string scope;  // the scenario's name, or "all"
  int games = 0;
  WinDrawLoss blue;  // results of the blue side, whoever played it
  std::vector<PairRecord> pairs;
  std::vector<AgentRecord> agents;
  EloFit elo;  // anchored on the first agent
};

// Statistics of the played games of one scenario (index), or of all of them (scenario = -1).
// The two games of a duplicate round are found by their scenario, dice seed and pair of agents,
// in any order. The Elo fit uses one virtual draw per pair as its prior (arena/elo.h).
ArenaStats arenaStats(const ArenaLineup& lineup, const std::vector<ArenaGame>& games, int scenario);

// The statistics of every scope a run reports: each scenario, then all scenarios together when
// there are several.
std::vector<ArenaStats> arenaScopes(const ArenaLineup& lineup, const std::vector<ArenaGame>& games);

}  // namespace morne::arena
