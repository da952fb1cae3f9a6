// `morne scenario balance` (arena/scenario_balance.h): the interval and the next handicap by
// hand counts, a scenario made lopsided by a known VP gift, and a run continued from its
// folder.

#include "arena/scenario_balance.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "env/error.h"
#include "env/io/scenario_handicap.h"
#include "env/io/scenario_library.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

std::string freshFolder(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("morne_balance_tests_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  return dir.string();
}

std::string fileText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ScenarioBalance, TheIntervalIsWilsonsAndDrawsAreLeftOut) {
  // 3 margins of +1 and 1 of -2 and 2 of 0: at no handicap 3 blue, 1 orange, 2 draws.
  const arena::HandicapTrial t = arena::trialOf(0, {1, 1, 1, -2, 0, 0});
  EXPECT_EQ(t.games, 6);
  EXPECT_EQ(t.blue, 3);
  EXPECT_EQ(t.orange, 1);
  EXPECT_EQ(t.draws, 2);
  EXPECT_DOUBLE_EQ(t.share, 0.75);
  // Wilson, n = 4, p = 0.75, z = 1.96: centre 0.6275, half-width 0.3269 (hand computation).
  EXPECT_NEAR(t.low, 0.3006, 1e-4);
  EXPECT_NEAR(t.high, 0.9544, 1e-4);
  EXPECT_EQ(t.margins.at(0), 2);
  // Half a point to orange turns the two draws into orange wins.
  const arena::HandicapTrial h = arena::trialOf(-1, {1, 1, 1, -2, 0, 0});
  EXPECT_EQ(h.orange, 3);
  EXPECT_EQ(h.draws, 0);
}

TEST(ScenarioBalance, BalancedMeansAnIntervalAround50WithinFortyToSixty) {
  std::vector<int> even(200, 1);
  for (int i = 0; i < 100; ++i) even[static_cast<size_t>(i)] = -1;
  EXPECT_TRUE(arena::isBalanced(arena::trialOf(0, even)));
  const std::vector<int> few = {1, -1, 1, -1};  // 50%, but [15, 85]
  EXPECT_FALSE(arena::isBalanced(arena::trialOf(0, few)));
  std::vector<int> lopsided(200, 1);
  for (int i = 0; i < 80; ++i) lopsided[static_cast<size_t>(i)] = -1;  // blue 60%
  EXPECT_FALSE(arena::isBalanced(arena::trialOf(0, lopsided)));
  EXPECT_FALSE(arena::isBalanced(arena::trialOf(0, {0, 0, 0})));  // nothing decisive
}

TEST(ScenarioBalance, TheNextHandicapSplitsTheMarginsSeen) {
  // Half the games end 3 VP down for blue, half 1 VP down: 1.5 to 2.5 VP to blue split them;
  // the nearest to the current handicap (none) is 1.5.
  EXPECT_EQ(arena::evenHandicap({{-3, 10}, {-1, 10}}, 0), 3);
  EXPECT_EQ(arena::evenHandicap({{-3, 10}, {-1, 10}}, 10), 5);
  // Orange's mirror image.
  EXPECT_EQ(arena::evenHandicap({{3, 10}, {1, 10}}, 0), -3);
  // Margins all on one value: no handicap splits them; the current one stays.
  EXPECT_EQ(arena::evenHandicap({{-3, 20}}, 0), 0);
  // A draw band: at 2 VP to blue, 4 of each side win and the 12 games at -2 are draws.
  EXPECT_EQ(arena::evenHandicap({{-3, 4}, {-2, 12}, {-1, 4}}, 0), 4);
}

// A small open map with an objective for each side in the middle, played by `random`: margins
// that vary from game to game. With `gift`, blue also has an immovable unit in a far corner
// on an objective worth 2 VP to it alone.
std::string lineMapFile(const std::string& dir, bool gift) {
  TestMap m;
  m.turns(3);
  m.unit({.id = "B1", .at = {-2, 0}}).unit({.id = "B2", .at = {-2, 1}});
  m.unit({.id = "O1", .side = 1, .at = {2, 0}}).unit({.id = "O2", .side = 1, .at = {2, -1}});
  m.objective({-1, 0}, false, 1, 1).objective({1, 0}, false, 1, 1);
  if (gift) {
    m.unit({.id = "B3", .at = {-6, 6}, .ma = 0});
    m.objective({-6, 6}, false, 2, 0);
  }
  nlohmann::json doc = m.toJson();
  doc["name"] = gift ? "gift" : "plain";
  fs::create_directories(dir);
  const std::string path = (fs::path(dir) / (gift ? "gift.json" : "plain.json")).string();
  std::ofstream(path) << doc.dump(2);
  return path;
}

arena::BalanceRequest randomRequest(const std::string& scenario, const std::string& out) {
  arena::BalanceRequest r;
  r.scenario = scenario;
  r.agents = {"random"};
  r.games = 60;
  r.max_games = 60;
  r.max_tries = 6;
  r.seed = 7;
  r.jobs = 2;
  r.out = out;
  return r;
}

TEST(ScenarioBalance, AKnownVpGiftMovesTheFairHandicapByTheGift) {
  const std::string dir = freshFolder("gift");
  const auto quiet = [](const arena::BalanceProgress&) {};
  const arena::BalanceOutcome plain =
      arena::balanceScenario(randomRequest(lineMapFile(dir, false), dir + "/plain"), quiet);
  const arena::BalanceOutcome gift =
      arena::balanceScenario(randomRequest(lineMapFile(dir, true), dir + "/gift"), quiet);
  ASSERT_FALSE(plain.trials.empty());
  ASSERT_FALSE(gift.trials.empty());
  // The gift's games are the plain games with 2 VP more for blue: the same dice and moves.
  const auto& first_plain = plain.trials.front();
  const auto& first_gift = gift.trials.front();
  ASSERT_EQ(first_plain.games, first_gift.games);
  for (const auto& [margin, n] : first_plain.margins) {
    EXPECT_EQ(first_gift.margins.count(margin + 2) ? first_gift.margins.at(margin + 2) : 0, n)
        << "margin " << margin;
  }
  // So the fair handicap moves by 2 VP towards orange, with the same share.
  const auto& p = plain.trials[static_cast<size_t>(plain.chosen)];
  const auto& g = gift.trials[static_cast<size_t>(gift.chosen)];
  EXPECT_EQ(g.handicap, p.handicap - 4);
  EXPECT_DOUBLE_EQ(g.share, p.share);
  EXPECT_EQ(gift.balanced, plain.balanced);
  // The scenario written carries the handicap chosen.
  const auto written = env::loadScenario(gift.scenario_file);
  EXPECT_EQ(written->balance().signedHalf(), g.handicap);
  // ... and how it was measured: the chosen try's wins, with the agents and the seed.
  ASSERT_EQ(written->balanceMeasurements().size(), 1u);
  const env::BalanceMeasurement& m = written->balanceMeasurements()[0];
  EXPECT_EQ(m.agents, "random");
  EXPECT_EQ(m.blue, g.blue);
  EXPECT_EQ(m.orange, g.orange);
  EXPECT_EQ(m.draws, g.draws);
  EXPECT_EQ(m.seed, 7u);
}

TEST(ScenarioBalance, ARunContinuesFromItsFolderAndRefusesAnother) {
  const std::string dir = freshFolder("resume");
  const std::string scenario = lineMapFile(dir, false);
  arena::BalanceRequest r = randomRequest(scenario, dir + "/run");
  r.max_tries = 1;
  std::atomic<bool> stop = false;
  int played = 0;
  const arena::BalanceOutcome stopped = arena::balanceScenario(
      r,
      [&](const arena::BalanceProgress& p) {
        if (p.line.empty() && ++played == 25) stop = true;
      },
      &stop);
  EXPECT_TRUE(stopped.interrupted);
  const std::string games_csv = dir + "/run/games.csv";
  const std::string rows_before = fileText(games_csv);
  EXPECT_GE(std::count(rows_before.begin(), rows_before.end(), '\n'), 1 + 25);

  int new_games = 0;
  const arena::BalanceOutcome done = arena::balanceScenario(
      r, [&](const arena::BalanceProgress& p) { new_games += p.line.empty(); });
  ASSERT_FALSE(done.interrupted);
  ASSERT_EQ(done.trials.size(), 1u);
  EXPECT_EQ(done.trials[0].games, 60);
  const std::string rows_after = fileText(games_csv);
  EXPECT_EQ(rows_after.substr(0, rows_before.size()), rows_before) << "saved rows are kept";
  EXPECT_EQ(new_games + std::count(rows_before.begin(), rows_before.end(), '\n') - 1, 60);

  // The same run from scratch gives the same figures (the same seeds).
  arena::BalanceRequest again = r;
  again.out = dir + "/again";
  const arena::BalanceOutcome fresh = arena::balanceScenario(again, [](const auto&) {});
  EXPECT_EQ(fresh.trials[0].margins, done.trials[0].margins);

  // Another seed in the same folder is refused, naming the field; --force starts over.
  arena::BalanceRequest other = r;
  other.seed = 8;
  try {
    arena::balanceScenario(other, [](const auto&) {});
    FAIL() << "continued another run";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("seed"), std::string::npos) << e.what();
  }
  other.force = true;
  EXPECT_EQ(arena::balanceScenario(other, [](const auto&) {}).trials[0].games, 60);
}

TEST(ScenarioBalance, ADamagedGamesFileIsRefusedWithItsLine) {
  const std::string dir = freshFolder("damaged");
  arena::BalanceRequest r = randomRequest(lineMapFile(dir, false), dir + "/run");
  r.max_tries = 1;
  r.games = r.max_games = 4;
  arena::balanceScenario(r, [](const auto&) {});
  std::ofstream(dir + "/run/games.csv", std::ios::app) << "0,9,blue,1,1,1,40\n";  // a draw
  try {
    arena::balanceScenario(r, [](const auto&) {});
    FAIL() << "read a row whose winner contradicts its VP";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("games.csv:6: the winner and level"), std::string::npos)
        << e.what();
  }
}

TEST(ScenarioBalance, BadRequestsAreRefusedBeforeAnyFile) {
  const std::string dir = freshFolder("bad");
  arena::BalanceRequest r = randomRequest("duel", dir + "/run");
  r.agents = {"random", "rule", "greedy"};
  EXPECT_THROW(arena::balanceScenario(r, [](const auto&) {}), ConfigError);
  r.agents = {"random", "rule"};
  r.games = 61;
  EXPECT_THROW(arena::balanceScenario(r, [](const auto&) {}), ConfigError);
  r.games = 60;
  r.agents = {"nosuchagent"};
  EXPECT_THROW(arena::balanceScenario(r, [](const auto&) {}), ConfigError);
  EXPECT_FALSE(fs::exists(dir + "/run"));
}

}  // namespace
}  // namespace morne::test
