#pragma once
// What an arena run measured: win/draw/loss per pair and per side, per-agent averages and the
// Elo fit (agents/elo.h), for one scenario or for all of them together.

#include <string>
#include <vector>

#include "agents/arena.h"
#include "agents/elo.h"

namespace morne::agents {

struct WinDrawLoss {
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int games() const { return wins + draws + losses; }
  double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.0; }
};

// Results of agent `a` against agent `b` (a < b), split by the side `a` played.
struct PairRecord {
  int a = 0;
  int b = 0;
  WinDrawLoss a_as_blue;
  WinDrawLoss a_as_orange;
  WinDrawLoss total() const;
};

struct AgentRecord {
  WinDrawLoss results;
  double mean_plies = 0;            // length of its games
  double seconds_per_decision = 0;  // its own thinking time
  int decisions = 0;
};

struct ArenaStats {
  std::string scope;  // the scenario's name, or "all"
  int games = 0;
  WinDrawLoss blue;   // results of the blue side, whoever played it
  std::vector<PairRecord> pairs;
  std::vector<AgentRecord> agents;
  EloFit elo;         // anchored on the first agent
};

// Statistics of the played games of one scenario (index), or of all of them (scenario = -1).
ArenaStats arenaStats(const ArenaConfig& config, const std::vector<ArenaGame>& games, int scenario);

}  // namespace morne::agents
