// `morne scenario analyse` (arena/scenario_analysis.h, arena/scenario_analysis_run.h): every
// figure against a hand count on a few games, the games' file read back and refused when
// damaged, and a run stopped and continued that gives what an uninterrupted one gives.

#include "arena/scenario_analysis.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "arena/scenario_analysis_run.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "tests/file_bytes.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;
using arena::GameTrace;

std::string analysisFolder(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("morne_analysis_tests_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  return dir.string();
}

// A game of duel (6 turns, 4 objectives, handicap 1.5 VP to orange) with objective 0's holder
// given turn by turn and the others held by nobody; losses are infantry's.
GameTrace game(int pair, int number, bool swapped, int winner, std::array<int, 2> vp, int level,
               int plies, std::vector<int> margins, std::vector<int> first_holder,
               std::array<int, 2> infantry_lost) {
  GameTrace g;
  g.pair = pair;
  g.game = number;
  g.swapped = swapped;
  g.winner = winner;
  g.vp = vp;
  g.handicap = -3;
  g.level = level;
  g.plies = plies;
  g.margin_half = std::move(margins);
  for (int holder : first_holder) g.holders.push_back({holder, -1, -1, -1});
  g.vc_lost[0][0] = infantry_lost[0];
  g.vc_lost[1][0] = infantry_lost[1];
  return g;
}

std::vector<GameTrace> handGames() {
  return {
      // Pair 0 (a plays itself): blue by 1.5 VP (minor), orange by 2.5 (tactical), blue by 0.5
      // (minor) in a game that ended after turn 3.
      game(0, 0, false, 0, {4, 1}, 1, 100, {-3, -3, 1, 1, 3, 3}, {-1, -1, 0, 0, 0, 0}, {2, 5}),
      game(0, 1, false, 1, {1, 2}, 2, 200, {-3, -3, -3, -5, -5, -5}, {1, 1, 1, 1, 1, 1}, {4, 1}),
      game(0, 2, false, 0, {3, 1}, 1, 60, {-3, -1, 1}, {-1, 0, 0}, {0, 3}),
      // Pair 1 (a vs b): blue wins both, a blue in the first, orange in the second.
      game(1, 0, false, 0, {4, 1}, 1, 90, {3, 3, 3, 3, 3, 3}, {0, 0, 0, 0, 0, 0}, {0, 0}),
      game(1, 1, true, 0, {4, 1}, 1, 90, {3, 3, 3, 3, 3, 3}, {0, 0, 0, 0, 0, 0}, {0, 0}),
  };
}

TEST(ScenarioAnalysis, EveryFigureMatchesAHandCount) {
  const auto sc = env::loadScenario("duel");
  const std::vector<arena::AgentPair> pairs = {arena::parseAgentPair("a"),
                                               arena::parseAgentPair("a vs b")};
  const arena::ScenarioAnalysis a = arena::analyseGames(*sc, pairs, handGames());
  EXPECT_EQ(a.handicap, -3);
  EXPECT_EQ(a.turns, 6);
  ASSERT_EQ(a.pairs.size(), 2u);
  const arena::PairFigures& self = a.pairs[0];
  EXPECT_EQ(self.games, 3);
  EXPECT_EQ(self.sides.blue, 2);
  EXPECT_EQ(self.sides.orange, 1);
  EXPECT_EQ(self.sides.draws, 0);
  EXPECT_DOUBLE_EQ(self.sides.share, 2.0 / 3);
  EXPECT_EQ(self.minor, 2);
  EXPECT_DOUBLE_EQ(self.mean_turns, 5);
  EXPECT_DOUBLE_EQ(self.mean_plies, 120);
  const arena::PairFigures& skill = a.pairs[1];
  EXPECT_EQ(skill.first_wins, 1);
  EXPECT_EQ(skill.first_draws, 0);
  EXPECT_EQ(skill.first_losses, 1);
  EXPECT_DOUBLE_EQ(skill.first_score, 0.5);
  EXPECT_NEAR(skill.elo, 0, 1) << "each won as blue: blue's edge, not skill";

  // Pooled over pair 0 only (it plays itself).
  EXPECT_EQ(a.pooled_games, 3);
  ASSERT_EQ(a.by_turn.size(), 6u);
  const double leads[6][4] = {
      // games, blue, orange, mean margin (half VP)
      {3, 0, 1, -3},     {3, 0, 1, -7.0 / 3}, {3, 2.0 / 3, 1.0 / 3, -1.0 / 3},
      {2, 0.5, 0.5, -2}, {2, 0.5, 0.5, -1},   {2, 0.5, 0.5, -1}};
  for (size_t t = 0; t < 6; ++t) {
    SCOPED_TRACE("turn " + std::to_string(t + 1));
    EXPECT_EQ(a.by_turn[t].turn, static_cast<int>(t + 1));
    EXPECT_EQ(a.by_turn[t].games, leads[t][0]);
    EXPECT_DOUBLE_EQ(a.by_turn[t].blue_leads, leads[t][1]);
    EXPECT_DOUBLE_EQ(a.by_turn[t].orange_leads, leads[t][2]);
    EXPECT_DOUBLE_EQ(a.by_turn[t].mean_margin_half, leads[t][3]);
  }
  ASSERT_EQ(a.objectives.size(), 4u);
  EXPECT_EQ(a.objectives[0].hex, "0504");
  const std::vector<double> blue = {0, 1.0 / 3, 2.0 / 3, 0.5, 0.5, 0.5};
  const std::vector<double> orange = {1.0 / 3, 1.0 / 3, 1.0 / 3, 0.5, 0.5, 0.5};
  EXPECT_EQ(a.objectives[0].blue, blue);
  EXPECT_EQ(a.objectives[0].orange, orange);
  EXPECT_EQ(a.objectives[1].blue, std::vector<double>(6, 0.0));

  // Winners lost 2, 1 and 0 infantry VC, losers 5, 4 and 3.
  EXPECT_EQ(a.decisive_games, 3);
  bool infantry = false;
  for (const arena::TypeLosses& l : a.losses) {
    if (l.type != "infantry") {
      EXPECT_EQ(l.winner_lost + l.loser_lost, 0) << l.type;
      continue;
    }
    infantry = true;
    EXPECT_DOUBLE_EQ(l.winner_lost, 1);
    EXPECT_DOUBLE_EQ(l.loser_lost, 4);
  }
  EXPECT_TRUE(infantry);

  // The forms carry the figures.
  const std::string text = arena::analysisText(a);
  EXPECT_NE(text.find("a: 3 games, blue wins 66.7% ["), std::string::npos) << text;
  EXPECT_NE(text.find("a against b: 1-0-1, score 50.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("infantry: winner 1.00, loser 4.00"), std::string::npos) << text;
  const std::string json = arena::analysisJson(a);
  EXPECT_NE(json.find("\"minor_victories\": 2"), std::string::npos) << json;
  EXPECT_NE(arena::analysisSvg(a).find("<svg"), std::string::npos);
}

TEST(ScenarioAnalysis, AgentPairsAndGameLinesAreReadOrRefusedWithTheirPlace) {
  EXPECT_EQ(arena::parseAgentPair(" mcts:sims=64 vs rule ").second, "rule");
  EXPECT_TRUE(arena::parseAgentPair("az:model=m.pt,sims=8").self());
  for (const char* bad : {"", "a vs ", " vs b", "a vs b vs c"})
    EXPECT_THROW(arena::parseAgentPair(bad), ConfigError) << bad;

  const GameTrace g = handGames()[1];
  const GameTrace back = arena::traceOfJson(arena::traceJson(g), "games.jsonl:2");
  EXPECT_EQ(back.margin_half, g.margin_half);
  EXPECT_EQ(back.holders, g.holders);
  EXPECT_EQ(back.vc_lost, g.vc_lost);
  EXPECT_EQ(back.winner, g.winner);
  EXPECT_EQ(back.swapped, g.swapped);
  std::string line = arena::traceJson(g);
  const std::string wrong = line.replace(line.find("\"winner\":1"), 10, "\"winner\":0");
  for (const std::string& damaged : {wrong, std::string("{\"pair\":0"), std::string("[]")}) {
    try {
      arena::traceOfJson(damaged, "games.jsonl:7");
      ADD_FAILURE() << "accepted " << damaged;
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("games.jsonl:7: ", 0), 0u) << e.what();
    }
  }
}

TEST(ScenarioAnalysis, AStoppedRunContinuesToTheFiguresOfAnUninterruptedOne) {
  const std::string dir = analysisFolder("resume");
  arena::AnalysisRequest r;
  r.scenario = "duel";
  r.pairs = {"random", "rule vs random"};
  r.games = 4;
  r.jobs = 1;
  r.out = dir + "/run";
  std::atomic<bool> stop = false;
  int played = 0;
  const arena::AnalysisOutcome stopped = arena::analyseScenario(
      r,
      [&](const arena::AnalysisProgress& p) {
        if (p.line.empty() && ++played == 3) stop = true;
      },
      &stop);
  EXPECT_TRUE(stopped.interrupted);
  EXPECT_FALSE(fs::exists(r.out + "/report.txt"));
  const std::string lines_before = fileBytes(r.out + "/games.jsonl");
  EXPECT_EQ(std::count(lines_before.begin(), lines_before.end(), '\n'), 3);

  int new_games = 0;
  const arena::AnalysisOutcome done = arena::analyseScenario(
      r, [&](const arena::AnalysisProgress& p) { new_games += p.line.empty(); });
  ASSERT_FALSE(done.interrupted);
  EXPECT_EQ(new_games, 5);
  EXPECT_EQ(fileBytes(r.out + "/games.jsonl").substr(0, lines_before.size()), lines_before);
  arena::AnalysisRequest again = r;
  again.out = dir + "/again";
  const arena::AnalysisOutcome fresh = arena::analyseScenario(again, [](const auto&) {});
  EXPECT_EQ(arena::analysisJson(fresh.analysis), arena::analysisJson(done.analysis));
  EXPECT_EQ(fileBytes(r.out + "/report.txt"), arena::analysisText(done.analysis));
  EXPECT_TRUE(fs::exists(r.out + "/report.svg"));
  EXPECT_EQ(done.analysis.pooled_games, 4);
  ASSERT_FALSE(done.analysis.by_turn.empty());
  EXPECT_EQ(done.analysis.by_turn[0].games, 4);
  // The rule agent beats random play.
  EXPECT_GT(done.analysis.pairs[1].first_score, 0.5);

  // Another request in the folder is refused, naming what differs; a damaged line too.
  arena::AnalysisRequest other = r;
  other.seed = 9;
  try {
    arena::analyseScenario(other, [](const auto&) {});
    FAIL() << "continued another run";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("seed"), std::string::npos) << e.what();
  }
  std::ofstream(r.out + "/games.jsonl", std::ios::app) << "{\"pair\":0}\n";
  try {
    arena::analyseScenario(r, [](const auto&) {});
    FAIL() << "read a damaged line";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("games.jsonl:9: "), std::string::npos) << e.what();
  }
  for (int games : {0, 3}) {
    arena::AnalysisRequest bad = again;
    bad.games = games;
    EXPECT_THROW(arena::analyseScenario(bad, [](const auto&) {}), ConfigError) << games;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace morne::test
