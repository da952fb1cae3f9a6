#pragma once
// `morne scenario analyse`: plays the games a scenario analysis (arena/scenario_analysis.h)
// is made of, in a resumable folder: analysis.json (the request), games.jsonl (one line per
// finished game, appended at once) and, at the end, report.txt, report.json and report.svg
// (formats: docs/arena.md, "Scenario analysis"). A run stopped anywhere continues where it
// stopped; a game is never played twice.

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arena/scenario_analysis.h"

namespace morne::arena {

// The default pairs: the search and the rule agent each against itself (balance), and three
// skill pairs: the rule agent against random play, the search against the rule agent, and a
// longer search against a shorter one.
inline const std::vector<std::string> kDefaultAnalysisPairs = {
    "mcts:sims=64", "rule", "rule vs random", "mcts:sims=64 vs rule",
    "mcts:sims=256 vs mcts:sims=64"};

struct AnalysisRequest {
  std::string scenario;                                    // a built-in name or a file
  std::vector<std::string> pairs = kDefaultAnalysisPairs;  // "A" or "A vs B" (AgentPair)
  int games = 40;      // per pair; even (a skill pair plays each seed twice, sides swapped)
  uint64_t seed = 1;   // game i of a balance pair, and games 2i, 2i+1 of a skill pair, play
                       // the dice seed deriveSeed(seed, i)
  int jobs = 2;        // games played at once
  std::string out;     // the run's folder (required)
  bool force = false;  // start over in a folder that holds another run
};

// Progress: `line` is a whole line to print (a pair's start), or empty when only the counts
// changed.
struct AnalysisProgress {
  int done = 0, total = 0;  // games of the whole run
  std::string line;
};

struct AnalysisOutcome {
  ScenarioAnalysis analysis;  // of the games finished (all of them unless interrupted)
  bool interrupted = false;
};

// Plays what the folder request.out lacks and writes the reports. Throws ConfigError for a bad
// request (no pair, games below 2 or odd, a bad spec or pair), for a folder holding another
// run (without force) and for a damaged games.jsonl line (naming file and line); IoError when a
// file cannot be written. Stops between games when `stop` becomes true (no report written).
AnalysisOutcome analyseScenario(const AnalysisRequest& request,
                                const std::function<void(const AnalysisProgress&)>& progress,
                                const std::atomic<bool>* stop = nullptr);

// A game's trace as one games.jsonl line (no newline), and read back: ConfigError naming
// `where` when the line is not one.
std::string traceJson(const GameTrace& g);
GameTrace traceOfJson(const std::string& line, const std::string& where);

}  // namespace morne::arena
