// `morne selfplay` and `morne data inspect` as a user runs them: the shipped config makes
// valid shards; Ctrl-C (SIGINT) stops cleanly with complete shards and no temporary file; a
// killed run (SIGKILL) leaves only complete, readable shards; the Python example reads a shard.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/test_process.h"
#include "training/game_journal.h"
#include "training/shard_reader.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

std::string freshDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("morne-selfplay-cli-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  return dir.string();
}

// Shell text that waits (up to 60 s) until DIR holds a completed shard.
std::string waitForAShard(const std::string& dir) {
  return "for i in $(seq 600); do ls '" + dir +
         "'/*.h5 >/dev/null 2>&1 && break; sleep 0.1; done; ";
}

std::string joined(const std::vector<std::string>& files) {
  std::string s;
  for (const std::string& f : files) s += " '" + f + "'";
  return s;
}

TEST(SelfplayCli, ShippedConfigMakesValidShards) {
  const std::string dir = freshDir("config");
  const ProcessResult r = runMorne("selfplay --quiet --config " + std::string(MORNE_SOURCE_DIR) +
                                   "/configs/selfplay.cfg --set games=6 --set out=" + dir +
                                   " --set prefix=t --set rows-per-shard=200");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("6 games"), std::string::npos) << r.output;
  const std::vector<std::string> shards = filesEndingWith(dir, ".h5");
  ASSERT_FALSE(shards.empty());
  const ProcessResult inspect = runMorne("data inspect --check" + joined(shards));
  EXPECT_EQ(inspect.exit_code, 0) << inspect.output;
  EXPECT_NE(inspect.output.find("scenario:   duel; agents blue mcts:sims=100"), std::string::npos)
      << inspect.output;
  EXPECT_NE(inspect.output.find("checks:     ok"), std::string::npos) << inspect.output;
  fs::remove_all(dir);
}

// Issue 29: the position archive's positions are what the engine's set_state accepts, and a
// run started from them says how many games began there; --start-share without --starts is
// refused before any file.
TEST(SelfplayCli, ArchivedPositionsAreAcceptedBySetStateAndStartGames) {
  const std::string dir = freshDir("archive");
  const ProcessResult r = runMorne(
      "selfplay --quiet --scenario duel --agent mcts:sims=8 --games 4 "
      "--archive 1 --prefix a --out " +
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string archive = dir + "/a.positions.json";
  std::ifstream in(archive);
  const nlohmann::json positions = nlohmann::json::parse(in).at("positions");
  ASSERT_EQ(positions.size(), 4u);
  std::string requests = "{\"cmd\":\"load\",\"scenario\":\"duel\"}\n";
  for (const nlohmann::json& state : positions)
    requests += nlohmann::json{{"cmd", "set_state"}, {"state", state}}.dump() + "\n";
  const ProcessResult engine = runMorne("engine", requests);
  EXPECT_EQ(engine.exit_code, 0) << engine.output;
  std::istringstream replies(engine.output);
  int ok = 0;
  for (std::string line; std::getline(replies, line);)
    ok += nlohmann::json::parse(line, nullptr, false).value("ok", false);
  EXPECT_EQ(ok, 5) << engine.output;  // the load and the four set_state

  const ProcessResult from = runMorne(
      "selfplay --quiet --scenario duel --agent mcts:sims=8 "
      "--games 6 --start-share 1 --prefix b --starts " +
      dir + " --out " + dir);
  ASSERT_EQ(from.exit_code, 0) << from.output;
  EXPECT_NE(from.output.find("starts: 4 archived positions from 1 archive(s), 100% of the games"),
            std::string::npos)
      << from.output;
  EXPECT_NE(from.output.find("6 games started from archived positions"), std::string::npos)
      << from.output;
  const ProcessResult none =
      runMorne("selfplay --quiet --scenario duel --start-share 0.5 --out " + dir + "/none");
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_NE(none.output.find("--start-share needs --starts DIR"), std::string::npos) << none.output;
  EXPECT_FALSE(fs::exists(dir + "/none"));
  fs::remove_all(dir);
}

TEST(SelfplayCli, InterruptStopsCleanly) {
  const std::string dir = freshDir("interrupt");
  const ProcessResult r = runShell(
      "MORNE selfplay --quiet --scenario duel --agent mcts:sims=30 --games 100000 --jobs 2 "
      "--rows-per-shard 10 --prefix i --out " +
      dir + " & pid=$!; " + waitForAShard(dir) + "kill -INT $pid; wait $pid; echo \"exit $?\"");
  EXPECT_NE(r.output.find("interrupted: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("exit 130"), std::string::npos) << r.output;
  EXPECT_TRUE(filesEndingWith(dir, ".tmp").empty());
  const std::vector<std::string> shards = filesEndingWith(dir, ".h5");
  ASSERT_FALSE(shards.empty()) << r.output;
  const ProcessResult inspect = runMorne("data inspect --check" + joined(shards));
  EXPECT_EQ(inspect.exit_code, 0) << inspect.output;
  fs::remove_all(dir);
}

TEST(SelfplayCli, AKilledRunLeavesOnlyCompleteShards) {
  const std::string dir = freshDir("kill");
  runShell(
      "MORNE selfplay --quiet --scenario duel --agent mcts:sims=30 --games 100000 --jobs 2 "
      "--rows-per-shard 10 "
      "--prefix k --out " +
      dir + " & pid=$!; " + waitForAShard(dir) + "sleep 0.3; kill -KILL $pid; wait $pid");
  const std::vector<std::string> shards = filesEndingWith(dir, ".h5");
  ASSERT_FALSE(shards.empty());
  const ProcessResult inspect = runMorne("data inspect --check" + joined(shards));
  EXPECT_EQ(inspect.exit_code, 0) << inspect.output;
  EXPECT_EQ(inspect.output.find("problem"), std::string::npos) << inspect.output;

  // The games finished in the open shard are in its journal; the next run in the folder
  // turns it into a shard, and no finished game is lost.
  // (No journal when the kill fell between a shard's completion and the next game.)
  const std::vector<std::string> journals = filesEndingWith(dir, ".h5.journal");
  ASSERT_LE(journals.size(), 1u) << "the open shard's journal";
  size_t finished = 0;
  for (const std::string& s : shards) finished += training::readShard(s, false).games.size();
  // A kill between a shard's rename and its journal's removal leaves both: the journal's games
  // are then in the shard already, and recovery only removes the journal.
  const bool shard_done =
      !journals.empty() &&
      fs::exists(journals[0].substr(0, journals[0].size() - std::string(".journal").size()));
  const size_t journalled =
      journals.empty() || shard_done ? 0 : training::readJournal(journals[0]).games.size();
  const ProcessResult next = runMorne(
      "selfplay --quiet --scenario duel --agent mcts:sims=30 "
      "--games 1 --prefix next --out " +
      dir);
  ASSERT_EQ(next.exit_code, 0) << next.output;
  if (!journals.empty()) {
    EXPECT_NE(next.output.find("recovered " + std::to_string(journalled) + " finished game(s)"),
              std::string::npos)
        << next.output;
  }
  EXPECT_TRUE(filesEndingWith(dir, ".h5.journal").empty());
  size_t after = 0;
  for (const std::string& s : filesEndingWith(dir, ".h5")) {
    const training::ShardContents c = training::readShard(s, false);
    if (c.config.find("\"games\":1,") == std::string::npos) after += c.games.size();
  }
  EXPECT_EQ(after, finished + journalled);
  fs::remove_all(dir);
}

// Regression: with gumbel=1 every game's data differed between --jobs 1 and --jobs 2, by the
// last bits of the network's outputs in batches of other sizes. Up to 5 leaves a step, split
// into network batches of 2 (the last padded).
TEST(SelfplayCli, NetworkDataDoNotDependOnTheJobs) {
  const std::string dir = freshDir("jobs");
  fs::create_directories(dir);
  const std::string model = dir + "/duel.pt";
  ASSERT_EQ(runMorne("nn init --scenario duel --blocks 1 --channels 8 --out " + model).exit_code,
            0);
  std::vector<training::ShardContents> runs;
  for (int jobs : {1, 2}) {
    const std::string out = dir + "/j" + std::to_string(jobs);
    const ProcessResult r =
        runMorne("selfplay --quiet --scenario duel --agent az:model=" + model +
                 ",sims=8,gumbel=1 --games 6 --games-per-thread 5 --network-batch 2 --jobs " +
                 std::to_string(jobs) + " --prefix d --out " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    runs.push_back(training::readShard(out + "/d-0000.h5", true));
  }
  ASSERT_EQ(runs[0].games.size(), 6u);
  ASSERT_EQ(runs[1].games.size(), 6u);
  for (const training::GameData& a : runs[0].games) {
    bool found = false;
    for (const training::GameData& b : runs[1].games) {
      if (b.id != a.id) continue;
      found = true;
      EXPECT_EQ(a.rows, b.rows) << "game " << a.id;
      EXPECT_TRUE(a.planes == b.planes && a.policy == b.policy && a.value == b.value &&
                  a.move == b.move)
          << "game " << a.id << " differs between --jobs 1 and --jobs 2";
    }
    EXPECT_TRUE(found) << a.id;
  }
  fs::remove_all(dir);
}

// A fresh network: self-play in lock-step writes valid shards, the arena plays it (the arena
// checks every action's legality) against the rule agent, and the engine protocol's genmove
// asks it for a move.
TEST(SelfplayCli, NetworkAgentSelfPlaysAndPlaysInTheArena) {
  const std::string dir = freshDir("network");
  fs::create_directories(dir);
  const std::string model = dir + "/duel.pt";
  const ProcessResult init =
      runMorne("nn init --scenario duel --blocks 1 --channels 8 --out " + model);
  ASSERT_EQ(init.exit_code, 0) << init.output;
  const ProcessResult play =
      runMorne("selfplay --quiet --scenario duel --agent az:model=" + model +
               ",sims=8,noise=0.3 --games 4 --jobs 2 --games-per-thread 2 --prefix n --out " + dir);
  ASSERT_EQ(play.exit_code, 0) << play.output;
  EXPECT_NE(play.output.find("average batch"), std::string::npos) << play.output;
  const ProcessResult inspect =
      runMorne("data inspect --check" + joined(filesEndingWith(dir, ".h5")));
  EXPECT_EQ(inspect.exit_code, 0) << inspect.output;
  EXPECT_NE(inspect.output.find("games:      4"), std::string::npos) << inspect.output;
  const ProcessResult arena =
      runMorne("arena --quiet --scenarios duel --rounds 1 --out " + dir +
               "/arena --agents 'rule az:model=" + model + ",sims=8,gumbel=1'");
  EXPECT_EQ(arena.exit_code, 0) << arena.output;
  EXPECT_NE(arena.output.find("az:model="), std::string::npos) << arena.output;
  const ProcessResult engine =
      runMorne("engine",
               "{\"cmd\":\"load\",\"scenario\":\"duel\"}\n"
               "{\"cmd\":\"genmove\",\"agent\":\"az:model=" +
                   model + ",sims=16,gumbel=1,gumbel_scale=0\",\"play\":true}\n");
  EXPECT_EQ(engine.exit_code, 0) << engine.output;
  EXPECT_NE(engine.output.find("\"applied\""), std::string::npos) << engine.output;
  EXPECT_NE(engine.output.find("\"simulations\":16"), std::string::npos) << engine.output;
  fs::remove_all(dir);
}

TEST(SelfplayCli, BenchSelfplayReportsItsFigures) {
  const ProcessResult r = runMorne("bench selfplay --scenario duel --seconds 0.6 --repeats 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* expected : {"positions/s, 1 thread", "positions/s, 2 threads", "evaluator / raw",
                               "HDF5 writer rows/s", "median", "load average"}) {
    EXPECT_NE(r.output.find(expected), std::string::npos) << expected << "\n" << r.output;
  }
}

TEST(SelfplayCli, DataInspectRejectsWhatIsNotAShard) {
  const std::string text = writeTempFile("notes.h5", "hello\n");
  const ProcessResult r = runMorne("data inspect " + text);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("notes.h5"), std::string::npos) << r.output;
}

TEST(SelfplayCli, PythonExampleReadsAShard) {
  if (std::system("/usr/bin/python3 -c 'import h5py, numpy' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no /usr/bin/python3 with h5py and numpy (Debian: python3-h5py)";
  }
  const std::string dir = freshDir("python");
  const ProcessResult r = runMorne(
      "selfplay --quiet --scenario duel --agent mcts:sims=8 --games 2 --prefix p --out " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const ProcessResult py =
      runShell("/usr/bin/python3 '" + std::string(MORNE_SOURCE_DIR) + "/scripts/read_shard.py'" +
               joined(filesEndingWith(dir, ".h5")));
  EXPECT_EQ(py.exit_code, 0) << py.output;
  EXPECT_NE(py.output.find("  ok"), std::string::npos) << py.output;
  fs::remove_all(dir);
}

// scripts/read_shard.py expects of every dataset what the schema morne writes declares.
TEST(SelfplayCli, PythonExampleExpectsTheDeclaredSchema) {
  if (std::system("/usr/bin/python3 -c 'import h5py, numpy' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no /usr/bin/python3 with h5py and numpy (Debian: python3-h5py)";
  }
  const ProcessResult schema = runMorne("data schema");
  ASSERT_EQ(schema.exit_code, 0) << schema.output;
  const ProcessResult py = runShell("/usr/bin/python3 '" + std::string(MORNE_SOURCE_DIR) +
                                    "/scripts/read_shard.py' --expectations");
  ASSERT_EQ(py.exit_code, 0) << py.output;
  const nlohmann::json declared = nlohmann::json::parse(schema.output);
  const nlohmann::json expected = nlohmann::json::parse(py.output);
  ASSERT_EQ(expected.size(), declared.at("datasets").size()) << py.output;
  for (const nlohmann::json& d : declared.at("datasets")) {
    const std::string path = d.at("path");
    const std::string shape = d.at("shape");
    ASSERT_TRUE(expected.contains(path)) << path << " is not in read_shard.py's DATASETS";
    EXPECT_EQ(expected[path].at("type"), d.at("type")) << path;
    EXPECT_EQ(expected[path].at("rank").get<long>(),
              1 + std::count(shape.begin(), shape.end(), ','))
        << path;
  }
}

}  // namespace
}  // namespace morne::test
