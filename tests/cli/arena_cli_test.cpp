// `morne arena` keeps results: an output folder with results is never overwritten without
// --force, --resume checks that it continues the same run, `arena rate` recomputes ratings from
// games.csv files (merged), and a damaged games.csv is refused with the file, line and column.
// Signals and kill -9 are in fault_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "arena/results.h"
#include "env/error.h"
#include "tests/cli/test_process.h"
#include "tests/engine/session_client.h"
#include "tests/file_bytes.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

class ArenaCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = freshTestDir("arena"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

constexpr const char* kArena = "arena --quiet --agents 'rule random' --scenarios duel --jobs 2 ";

// --records writes one record per game, which replays to the result games.csv gives it. Rows
// come in the order games end; the "game" column (the last) is N of records/game-N.json.
TEST_F(ArenaCli, RecordsReplayToTheResultsOfTheTable) {
  const std::string out = dir_ + "/run";
  ASSERT_EQ(runMorne(std::string(kArena) + "--rounds 1 --records --out " + out).exit_code, 0);
  std::istringstream csv(fileBytes(out + "/games.csv"));
  std::vector<std::string> rows;
  for (std::string line; std::getline(csv, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 3u) << "a header and two games";
  for (int game = 0; game < 2; ++game) {
    const std::string path = out + "/records/game-" + std::to_string(game) + ".json";
    const nlohmann::json record = nlohmann::json::parse(fileBytes(path));
    const std::string agents = ",\"" + record["agents"]["blue"].get<std::string>() + "\",\"" +
                               record["agents"]["orange"].get<std::string>() + "\",";
    const auto row = std::find_if(rows.begin() + 1, rows.end(), [&](const std::string& r) {
      return r.substr(r.rfind(',') + 1) == std::to_string(game);
    });
    EXPECT_EQ(rows[0].substr(rows[0].rfind(',') + 1), "game");
    ASSERT_NE(row, rows.end()) << agents;
    SessionClient c;
    c.ok({{"cmd", "load_game"}, {"path", path}});
    const nlohmann::json r = c.ok({{"cmd", "result"}});
    EXPECT_TRUE(r["terminal"]);
    const std::string winner = r["winner"].is_null() ? "draw" : r["winner"].get<std::string>();
    EXPECT_NE(row->find(agents + winner + ","), std::string::npos) << *row << " vs " << r.dump();
  }
}

TEST_F(ArenaCli, ResultsAreNeverOverwrittenWithoutForce) {
  const std::string out = dir_ + "/run";
  ASSERT_EQ(runMorne(std::string(kArena) + "--rounds 5 --out " + out).exit_code, 0);
  const std::string before = fileBytes(out + "/games.csv");
  const ProcessResult again = runMorne(std::string(kArena) + "--rounds 3 --out " + out);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.output.find("already holds the results of a run"), std::string::npos)
      << again.output;
  EXPECT_NE(again.output.find("--force"), std::string::npos);
  EXPECT_EQ(fileBytes(out + "/games.csv"), before) << "a refused run must not touch the results";
  const ProcessResult forced = runMorne(std::string(kArena) + "--rounds 3 --force --out " + out);
  ASSERT_EQ(forced.exit_code, 0) << forced.output;
  const std::string after = fileBytes(out + "/games.csv");
  EXPECT_EQ(std::count(after.begin(), after.end(), '\n'), 7) << "header and 6 games";
}

TEST_F(ArenaCli, ResumeContinuesTheSameRunOnly) {
  const std::string out = dir_ + "/run";
  ASSERT_EQ(runMorne(std::string(kArena) + "--rounds 2 --seed 5 --out " + out).exit_code, 0);
  const ProcessResult other = runMorne("arena --quiet --resume --seed 6 --out " + out);
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.output.find("--seed differs from the run saved in"), std::string::npos)
      << other.output;
  const ProcessResult fewer = runMorne("arena --quiet --resume --rounds 1 --out " + out);
  EXPECT_EQ(fewer.exit_code, 2);
  // A larger --rounds extends the run: 2 more rounds, the first 4 games kept.
  const ProcessResult more = runMorne("arena --resume --quiet --rounds 4 --out " + out);
  ASSERT_EQ(more.exit_code, 0) << more.output;
  EXPECT_NE(more.output.find("resuming with 4 games already played"), std::string::npos)
      << more.output;
  EXPECT_NE(more.output.find("== duel: 8 games"), std::string::npos) << more.output;
  EXPECT_NE(runMorne("arena --resume --out " + dir_ + "/nothing").exit_code, 0);
}

// A resumed run keeps writing records without --records given again: run.json remembers it.
TEST_F(ArenaCli, ResumeKeepsWritingRecords) {
  const std::string out = dir_ + "/run";
  ASSERT_EQ(runMorne(std::string(kArena) + "--rounds 1 --records --out " + out).exit_code, 0);
  const ProcessResult more = runMorne("arena --resume --quiet --rounds 2 --out " + out);
  ASSERT_EQ(more.exit_code, 0) << more.output;
  EXPECT_EQ(filesEndingWith(out + "/records", ".json").size(), 4u) << more.output;
  EXPECT_TRUE(fs::exists(out + "/records/game-3.json"));
  const std::string csv = fileBytes(out + "/games.csv");
  EXPECT_NE(csv.find(",3\n"), std::string::npos) << csv;
}

// The ratings are anchored on the agent --anchor names (the first agent by default).
TEST_F(ArenaCli, RateAnchorsOnTheAgentAsked) {
  const std::string a = dir_ + "/a";
  // One game at a time: games.csv's first row is the schedule's first game, rule's.
  ASSERT_EQ(runMorne("arena --quiet --agents 'rule random' --scenarios duel --jobs 1 "
                     "--rounds 2 --out " +
                     a)
                .exit_code,
            0);
  const ProcessResult first = runMorne("arena rate " + a + "/games.csv");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const ProcessResult anchored = runMorne("arena rate --anchor random " + a + "/games.csv");
  ASSERT_EQ(anchored.exit_code, 0) << anchored.output;
  auto anchorLine = [](const std::string& out) {
    const size_t at = out.find("(anchor)");
    if (at == std::string::npos) return std::string();
    return out.substr(out.rfind('\n', at) + 1, at - out.rfind('\n', at) - 1);
  };
  EXPECT_NE(anchorLine(first.output).find("rule"), std::string::npos) << first.output;
  EXPECT_NE(anchorLine(anchored.output).find("random"), std::string::npos) << anchored.output;
  const ProcessResult unknown = runMorne("arena rate --anchor mcts " + a + "/games.csv");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("--anchor mcts: no game names this agent (they name rule, random)"),
            std::string::npos)
      << unknown.output;
}

TEST_F(ArenaCli, RateRecomputesAndMergesRuns) {
  const std::string a = dir_ + "/a", b = dir_ + "/b";
  ASSERT_EQ(runMorne(std::string(kArena) + "--rounds 3 --out " + a).exit_code, 0);
  ASSERT_EQ(runMorne("arena --quiet --agents 'rule mcts:sims=10' --scenarios duel --rounds 2 "
                     "--out " +
                     b)
                .exit_code,
            0);
  const ProcessResult one = runMorne("arena rate " + a + "/games.csv");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_NE(one.output.find("== duel: 6 games"), std::string::npos) << one.output;
  const ProcessResult both =
      runMorne("arena rate --out " + dir_ + "/merged " + a + "/games.csv " + b + "/games.csv");
  ASSERT_EQ(both.exit_code, 0) << both.output;
  EXPECT_NE(both.output.find("10 games of 3 agents"), std::string::npos) << both.output;
  const std::string merged = fileBytes(dir_ + "/merged/ratings.csv");
  EXPECT_NE(merged.find("\"mcts:sims=10\""), std::string::npos) << merged;
  EXPECT_NE(runMorne("arena rate --out " + dir_ + "/merged " + a + "/games.csv").exit_code, 0)
      << "reports are not replaced without --force";
  EXPECT_EQ(runMorne("arena rate --force --out " + dir_ + "/merged " + a + "/games.csv").exit_code,
            0);
}

TEST(ArenaResults, DamagedGamesCsvIsRefusedWithItsPlace) {
  const std::string header = arena::gamesCsvHeader() + "\n";
  const std::string good =
      "duel,0,77,\"rule\",\"random\",blue,3,0,2,80,30,31,0.0010,0.0001,10,0,0,12,2,3,0\n";
  arena::SavedGames saved;
  arena::readGamesCsv(writeTempFile("good.csv", header + good), saved);
  ASSERT_EQ(saved.games.size(), 1u);
  EXPECT_EQ(saved.lineup.agents, (std::vector<std::string>{"rule", "random"}));
  EXPECT_EQ(saved.games[0].steps[1].reversals, 2);
  auto error = [&](const std::string& text) {
    arena::SavedGames s;
    try {
      arena::readGamesCsv(writeTempFile("bad.csv", text), s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("scenario,round\n").find("bad.csv:1: not a games.csv header"), std::string::npos);
  EXPECT_NE(
      error(header + "duel,0,77,\"rule\",\"random\",purple,3,0,2,80,30,31,0,0,1,0,0,1,0,0,0\n")
          .find("bad.csv:2: column winner: \"purple\" is not blue, orange or draw"),
      std::string::npos);
  EXPECT_NE(
      error(header + good + "duel,x,77,\"rule\",\"random\",blue,3,0,2,80,30,31,0,0,1,0,0,1,0,0,0\n")
          .find("bad.csv:3: column round: \"x\" is not a number"),
      std::string::npos);
  EXPECT_NE(error(header + "duel,0,77,\"rule\n").find("bad.csv:2: a quoted field is not closed"),
            std::string::npos);
  EXPECT_NE(error(header + "duel,0,77\n").find("bad.csv:2: 3 fields, expected 21"),
            std::string::npos);
  EXPECT_NE(error(header + "duel,0,77,\"rule\",\"random\",draw,3,0,2,80,30,31,0,0,1,0,0,1,0,0,0\n")
                .find("column level"),
            std::string::npos);
  EXPECT_NE(error(header + "duel,0,77,\"rule\",\"random\",blue,3,0,2,80,30,31,0,0,1,0,0,1,0,0,-1\n")
                .find("bad.csv:2: column game"),
            std::string::npos);
  // Files written before the game column (and before the step columns) are read.
  const std::string older = arena::gamesCsvHeader(20) + "\n" + good.substr(0, good.rfind(','));
  arena::SavedGames old;
  arena::readGamesCsv(writeTempFile("older.csv", older + "\n"), old);
  ASSERT_EQ(old.games.size(), 1u);
  EXPECT_EQ(old.games[0].number, -1) << "no number: matched by scenario, round and agents";
  EXPECT_EQ(old.columns, 20u);
}

}  // namespace
}  // namespace morne::test
