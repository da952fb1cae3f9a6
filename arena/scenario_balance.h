#pragma once
// `morne scenario balance`: the victory-point handicap (docs/scenario-format.md, "balance") that
// makes a scenario even between equal agents. Each handicap tried is played on the same dice
// seeds (so two tries differ by the handicap, not by luck); blue's share of the decisive games
// gets a 95% Wilson interval; the next handicap is the one that would split the margins just
// seen evenly. A scenario is balanced at a handicap when the interval contains 50% and lies
// within 40-60%; when it cannot be (the margins bunch on one value, or every game is a draw)
// the outcome says why and what else to change. Every finished game is appended to the run's
// folder at once, so a run stopped anywhere continues where it stopped (formats: docs/arena.md,
// "Balance runs").

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "env/scenario.h"

namespace morne::arena {

// What to balance, with what.
struct BalanceRequest {
  std::string scenario;  // a built-in name or a file (the scenario or a variant)
  // One spec: it plays itself. Two: every seed is played twice, sides swapped, so that what
  // one agent is better at cancels out.
  std::vector<std::string> agents = {"mcts:sims=64"};
  int games = 200;      // games per handicap tried
  int max_games = 800;  // a handicap whose interval is too wide is played up to this many
  int max_tries = 8;    // handicaps tried at most
  uint64_t seed = 1;    // game i of every try uses the dice seed deriveSeed(seed, i)
  int jobs = 2;         // games played at once
  std::string out;      // the run's folder (required)
  bool force = false;   // start over in a folder that holds another run
};

// The games played at one handicap.
struct HandicapTrial {
  int handicap = 0;  // in half VP, + to blue, - to orange (env/io/scenario_handicap.h)
  int games = 0;
  int blue = 0, orange = 0, draws = 0;  // wins of each side, with the handicap
  double share = 0, low = 0, high = 1;  // blue's share of the decisive games and its interval
  std::map<int, int> margins;           // games by map margin (blue VP - orange VP, no handicap)
  double seconds = 0;                   // time spent on the games played by this run
};

struct BalanceOutcome {
  std::vector<HandicapTrial> trials;  // in the order tried
  int chosen = -1;                    // index of the trial the scenario is written with
  bool balanced = false;
  std::string verdict;        // one paragraph: the handicap, its share, or why none fits
  std::string scenario_file;  // the scenario written with the chosen handicap ("" if none)
  bool interrupted = false;
};

// Whether a trial is balanced: its interval contains 50% and lies within 40-60%.
bool isBalanced(const HandicapTrial& t);

// The handicap (half VP, signed) that would split the margins `margins` most evenly between
// blue and orange wins, draws left out; ties go to the one nearest `current`.
int evenHandicap(const std::map<int, int>& margins, int current);

// The trial of `handicap` from a list of games' map margins (blue VP - orange VP).
HandicapTrial trialOf(int handicap, const std::vector<int>& margins);

// Progress of a run: `line` is a whole line to print (a try's start or result), or empty when
// only the counts changed.
struct BalanceProgress {
  int handicap = 0;
  int done = 0, total = 0;
  std::string line;
};

// Runs the search `request` asks for, continuing the run saved in request.out when it is the
// same request (ConfigError when it is another and force is not set). Throws ConfigError for a
// bad request (no agent, more than two, games below 2 or odd with two agents, a bad spec),
// IoError when a file cannot be written; stops between games when `stop` becomes true.
BalanceOutcome balanceScenario(const BalanceRequest& request,
                               const std::function<void(const BalanceProgress&)>& progress,
                               const std::atomic<bool>* stop = nullptr);

}  // namespace morne::arena
