#pragma once
// The figures of `morne scenario analyse` (docs/arena.md, "Scenario analysis"): what a designer
// reads about a scenario from games between agents. Side balance with 95% intervals for each
// pair of agents; decisiveness (draws and minor victories); game length; the weight of skill
// (the score of a better agent against a weaker one: a scenario where it does not tell is a dice
// game); who leads after each game turn; who holds each objective after each game turn; and the
// unit types whose losses decide games. Computed from game traces alone, so a hand count on a
// few recorded games checks every figure (tests/arena/scenario_analysis_test.cpp).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/side_share.h"
#include "env/scenario.h"

namespace morne::arena {

// One pair of agents the analysis plays: `second` empty, `first` plays itself (a balance pair);
// otherwise `first` against `second`, each seed twice with the sides swapped (a skill pair).
struct AgentPair {
  std::string first, second;
  bool self() const { return second.empty(); }
  // "A" or "A vs B", as `--pair` takes it.
  std::string text() const { return self() ? first : first + " vs " + second; }
};

// Reads "A" or "A vs B"; ConfigError for an empty spec or more than two.
AgentPair parseAgentPair(const std::string& text);

// One finished game, as the analysis needs it.
struct GameTrace {
  int pair = 0;          // index of its AgentPair
  int game = 0;          // its index in the pair: seed index game (self) or game / 2 (skill)
  bool swapped = false;  // skill pairs: the second agent played blue
  int winner = env::kNoSide;
  std::array<int, env::kNumSides> vp = {};  // map VP at the end (the handicap apart)
  int handicap = 0;                         // the scenario's, half VP, + to blue
  int level = 0;                            // victory level, 0 a draw
  int plies = 0;
  // After each game turn played (the last one included): blue's score minus orange's in half
  // VP (the handicap counted), and each objective's holder (env::kNoSide: none).
  std::vector<int> margin_half;
  std::vector<std::vector<int>> holders;
  // Combat value lost by the end, by side and unit type (an eliminated unit loses all of it).
  std::array<std::array<int, env::kNumUnitTypes>, env::kNumSides> vc_lost = {};
};

using core::SideShare;
using core::sideShare;

// The figures of one pair of agents.
struct PairFigures {
  AgentPair agents;
  int games = 0;
  SideShare sides;        // who won, by colour
  int minor = 0;          // games won by a minor victory (a margin under 1 VP)
  double mean_plies = 0;  // length
  double mean_turns = 0;  // game turns played
  // Skill pairs: the first agent's wins, draws and losses, its score and Elo over the second
  // with the 95% interval (arena/elo.h; +-infinity printed open).
  int first_wins = 0, first_draws = 0, first_losses = 0;
  double first_score = 0;
  double elo = 0, elo_low = 0, elo_high = 0;
};

// After game turn `turn`: over the games that reached it, the share in which each side leads
// (by score, the handicap counted) and the mean margin.
struct TurnFigures {
  int turn = 0;
  int games = 0;
  double blue_leads = 0, orange_leads = 0;
  double mean_margin_half = 0;
};

// One objective: the share of games in which each side holds it after each game turn.
struct ObjectiveFigures {
  std::string hex;  // map label
  std::array<int, env::kNumSides> vp = {};
  std::vector<double> blue, orange;  // by turn (index 0: after turn 1)
};

// One unit type present in the scenario: the mean combat value of that type lost by the winner
// and by the loser of a decisive game.
struct TypeLosses {
  std::string type;
  double winner_lost = 0, loser_lost = 0;
};

struct ScenarioAnalysis {
  std::string scenario;
  int handicap = 0;  // the scenario's, half VP
  int turns = 0;
  std::vector<PairFigures> pairs;
  // Pooled over the balance pairs' games (over every game when no pair plays itself).
  int pooled_games = 0;
  std::vector<TurnFigures> by_turn;
  std::vector<ObjectiveFigures> objectives;
  int decisive_games = 0;  // of the pooled ones, those the losses are counted over
  std::vector<TypeLosses> losses;
};

// The analysis of `games` played on `sc` by `pairs`. ConfigError for a trace of a pair not in
// `pairs` or whose turn lists do not match the scenario.
ScenarioAnalysis analyseGames(const env::Scenario& sc, const std::vector<AgentPair>& pairs,
                              const std::vector<GameTrace>& games);

// The report as text (what the command prints), JSON and an SVG chart (who leads and who holds
// each objective, turn by turn).
std::string analysisText(const ScenarioAnalysis& a);
std::string analysisJson(const ScenarioAnalysis& a);
std::string analysisSvg(const ScenarioAnalysis& a);

}  // namespace morne::arena
