#include "arena/scenario_analysis_run.h"

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "agents/agent_kinds.h"
#include "agents/game_runner.h"
#include "arena/resumable_folder.h"
#include "env/error.h"
#include "env/io/crc32.h"
#include "env/io/durable_file.h"
#include "env/io/scenario_library.h"
#include "env/io/text_file.h"
#include "env/rng.h"
#include "env/victory.h"
#include "mcts/workers.h"

namespace morne::arena {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kAnalysisFormat = "morne-scenario-analysis-run/1";

// Records, after each game turn and at the end, the margin and the objectives' holders, and
// keeps the last position.
class TraceObserver : public agents::GameObserver {
 public:
  explicit TraceObserver(GameTrace& trace) : trace_(trace) {}
  void onStart(const env::GameState& start, const env::EventLog& /*events*/) override {
    last_ = start;
  }
  void onPly(const env::GameState& before, const agents::Ply& /*ply*/, const env::GameState& after,
             const env::EventLog& /*events*/) override {
    last_ = after;
    if (after.isTerminal() || after.turn != before.turn) {
      trace_.margin_half.push_back(env::gameResult(after).marginHalf());
      trace_.holders.emplace_back();
      for (const env::Objective& o : after.scenario->objectives())
        trace_.holders.back().push_back(env::objectiveHolder(after, o));
    }
  }
  const env::GameState& last() const { return last_; }

 private:
  GameTrace& trace_;
  env::GameState last_;
};

// Combat value lost by side and type at the end of a game.
void countLosses(const env::GameState& s, GameTrace& g) {
  const auto& units = s.scenario->units();
  for (size_t u = 0; u < units.size(); ++u) {
    const env::UnitState& now = s.unit(static_cast<int>(u));
    const int left = now.cell == env::kNoCell ? 0 : now.vc;
    g.vc_lost[static_cast<size_t>(units[u].side)][static_cast<size_t>(units[u].type)] +=
        units[u].vc - left;
  }
}

json runJson(const AnalysisRequest& r, const env::Scenario& sc) {
  return {{"format", kAnalysisFormat},
          {"scenario", r.scenario},
          {"scenario_crc32", env::crc32Of(sc.sourceText())},
          {"pairs", r.pairs},
          {"games", r.games},
          {"seed", std::to_string(r.seed)}};
}

// The traces of games.jsonl, refusing a damaged line with its place.
std::vector<GameTrace> readTraces(const std::string& path) {
  std::vector<GameTrace> traces;
  if (!fs::exists(path)) return traces;
  std::istringstream in(env::readTextFile(path, "analysis games file"));
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    traces.push_back(traceOfJson(line, env::printablePath(path) + ":" + std::to_string(number)));
  }
  return traces;
}

}  // namespace

std::string traceJson(const GameTrace& g) {
  json lost = json::array();
  for (const auto& side : g.vc_lost) lost.push_back(side);
  return json{{"pair", g.pair},       {"game", g.game},   {"swapped", g.swapped},
              {"winner", g.winner},   {"vp", g.vp},       {"handicap_half", g.handicap},
              {"level", g.level},     {"plies", g.plies}, {"margin_half", g.margin_half},
              {"holders", g.holders}, {"vc_lost", lost}}
      .dump();
}

GameTrace traceOfJson(const std::string& line, const std::string& where) {
  GameTrace g;
  try {
    const json j = json::parse(line);
    g.pair = j.at("pair").get<int>();
    g.game = j.at("game").get<int>();
    g.swapped = j.at("swapped").get<bool>();
    g.winner = j.at("winner").get<int>();
    g.vp = j.at("vp").get<std::array<int, env::kNumSides>>();
    g.handicap = j.at("handicap_half").get<int>();
    g.level = j.at("level").get<int>();
    g.plies = j.at("plies").get<int>();
    g.margin_half = j.at("margin_half").get<std::vector<int>>();
    g.holders = j.at("holders").get<std::vector<std::vector<int>>>();
    const auto lost = j.at("vc_lost").get<std::vector<std::vector<int>>>();
    if (lost.size() != env::kNumSides) throw ConfigError("vc_lost: one list per side");
    for (size_t side = 0; side < lost.size(); ++side) {
      if (lost[side].size() != env::kNumUnitTypes)
        throw ConfigError("vc_lost: one figure per unit type");
      std::copy(lost[side].begin(), lost[side].end(), g.vc_lost[side].begin());
    }
  } catch (const json::exception& e) {
    throw ConfigError(where + ": not a game of an analysis: " + e.what());
  } catch (const ConfigError& e) {
    throw ConfigError(where + ": " + e.what());
  }
  const int margin = 2 * (g.vp[0] - g.vp[1]) + g.handicap;
  const int winner = margin > 0 ? 0 : margin < 0 ? 1 : env::kNoSide;
  if (g.pair < 0 || g.game < 0 || winner != g.winner || env::victoryLevel(margin) != g.level ||
      g.margin_half.empty() || g.margin_half.back() != margin) {
    throw ConfigError(where +
                      ": the winner, level and last margin do not follow from the VP "
                      "and handicap");
  }
  return g;
}

AnalysisOutcome analyseScenario(const AnalysisRequest& r,
                                const std::function<void(const AnalysisProgress&)>& progress,
                                const std::atomic<bool>* stop) {
  if (r.pairs.empty()) throw ConfigError("scenario analyse: give at least one agent pair");
  if (r.games < 2 || r.games % 2 != 0) {
    throw ConfigError(
        "scenario analyse: --games must be even and 2 or more (a skill pair plays "
        "each seed twice, sides swapped)");
  }
  if (r.jobs < 1) throw ConfigError("scenario analyse: --jobs must be 1 or more");
  if (r.out.empty()) throw ConfigError("scenario analyse: --out names the run's folder");
  const auto sc = env::loadScenario(r.scenario);
  std::vector<AgentPair> pairs;
  for (const std::string& text : r.pairs) {
    pairs.push_back(parseAgentPair(text));
    agents::makeAgent(pairs.back().first, 0);
    if (!pairs.back().self()) agents::makeAgent(pairs.back().second, 0);
  }
  std::vector<GameTrace> traces;
  if (openResumableFolder(r.out, "analysis.json", "games.jsonl", runJson(r, *sc), r.force,
                          "scenario analysis run")) {
    traces = readTraces((fs::path(r.out) / "games.jsonl").string());
  }
  std::set<std::pair<int, int>> saved;
  for (const GameTrace& g : traces) {
    if (g.pair >= static_cast<int>(pairs.size()) || g.game >= r.games ||
        !saved.insert({g.pair, g.game}).second) {
      throw ConfigError(env::printablePath(r.out) + "/games.jsonl: game " + std::to_string(g.game) +
                        " of pair " + std::to_string(g.pair) +
                        " is not one this run plays, or is there twice");
    }
  }
  env::AppendOnlyFile games_file((fs::path(r.out) / "games.jsonl").string(), false);
  const int total = static_cast<int>(pairs.size()) * r.games;
  int done = static_cast<int>(traces.size());
  std::mutex lock;
  AnalysisOutcome out;
  for (size_t p = 0; p < pairs.size() && !out.interrupted; ++p) {
    const AgentPair& pair = pairs[p];
    progress({done, total, pair.text() + ": " + std::to_string(r.games) + " games"});
    mcts::forEachInParallel(r.jobs, r.games, [&](int i) {
      if (saved.count({static_cast<int>(p), i}) || (stop && *stop)) return;
      const bool swapped = !pair.self() && i % 2 == 1;
      const uint64_t seed = env::deriveSeed(r.seed, pair.self() ? i : i / 2);
      auto blue = agents::makeAgent(swapped ? pair.second : pair.first, agents::agentSeed(seed, 0));
      auto orange = agents::makeAgent(pair.self() ? pair.first
                                      : swapped   ? pair.first
                                                  : pair.second,
                                      agents::agentSeed(seed, 1));
      GameTrace g;
      TraceObserver observer(g);
      const agents::GameSummary s = agents::playGame(*sc, *blue, *orange, seed, &observer, stop);
      if (s.interrupted) return;
      g.pair = static_cast<int>(p);
      g.game = i;
      g.swapped = swapped;
      g.winner = s.result.winner;
      g.vp = s.result.vp;
      g.handicap = s.result.handicap_half[0] - s.result.handicap_half[1];
      g.level = s.result.level;
      g.plies = static_cast<int>(s.plies.size());
      countLosses(observer.last(), g);
      std::lock_guard guard(lock);
      games_file.append(traceJson(g) + "\n");
      traces.push_back(std::move(g));
      progress({++done, total, ""});
    });
    if (stop && *stop) out.interrupted = true;
  }
  out.interrupted = out.interrupted || done < total;
  out.analysis = analyseGames(*sc, pairs, traces);
  if (out.interrupted) return out;
  const fs::path dir(r.out);
  env::writeFileDurably((dir / "report.txt").string(), analysisText(out.analysis));
  env::writeFileDurably((dir / "report.json").string(), analysisJson(out.analysis));
  env::writeFileDurably((dir / "report.svg").string(), analysisSvg(out.analysis));
  return out;
}

}  // namespace morne::arena
