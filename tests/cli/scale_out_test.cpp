// The roles of a learning run as separate processes on this machine (docs/scale-out.md):
// workers started by hand join a run, a second worker of the same name is refused, a worker
// killed mid-game loses that game only, a killed learner resumes from its checkpoint, a worker
// never plays with a network the folder does not yet hold whole, and the data-parallel learner
// trains with 2 ranks and survives the loss of one. Several processes and LibTorch: an
// executable of its own, labelled "scale".

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/cli/test_process.h"
#include "training/game_journal.h"
#include "training/training_data.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

// A tiny run: generation 1 trains on 40 bootstrap games, generation 2 on 16 more.
const std::map<std::string, std::string> kTinyRun = {{"scenario", "duel"},
                                                     {"bootstrap", "mcts:sims=20"},
                                                     {"bootstrap-games", "40"},
                                                     {"games", "16"},
                                                     {"agent", "az:sims=8,gumbel=1"},
                                                     {"gate-agent", "az:sims=4"},
                                                     {"gate-rounds", "2"},
                                                     {"ladder-every", "0"},
                                                     {"ladder-rounds", "1"},
                                                     {"ladder-agent", "az:sims=4"},
                                                     {"ladder-references", "'rule random'"},
                                                     {"blocks", "1"},
                                                     {"channels", "8"},
                                                     {"value-hidden", "8"},
                                                     {"batch", "32"},
                                                     {"metrics-every", "25"},
                                                     {"validation-rows", "64"}};

class ScaleOut : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = freshTestDir("scale");
    run_ = dir_ + "/run";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Makes the run: the tiny one, with `changes`.
  void init(const std::map<std::string, std::string>& changes) {
    std::map<std::string, std::string> settings = kTinyRun;
    for (const auto& [key, value] : changes) settings[key] = value;
    std::string args = "loop init --out " + run_;
    for (const auto& [key, value] : settings) args += " --" + key + " " + value;
    const ProcessResult r = runMorne(args);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }

  static nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
  }

  // Games in the shards of a folder.
  static int gamesIn(const std::string& dir) {
    if (filesEndingWith(dir, ".h5").empty()) return 0;
    return static_cast<int>(training::indexShards({dir}, 0).games);
  }

  // Shell text that waits (up to a minute) until `condition` holds.
  static std::string waitFor(const std::string& condition) {
    return "for i in $(seq 6000); do " + condition +
           " >/dev/null 2>&1 && break; sleep 0.01; done; ";
  }

  std::string dir_, run_;
};

TEST_F(ScaleOut, WorkersStartedByHandJoinTheLearnerAndTheGate) {
  init({{"generations", "2"}, {"steps", "50"}, {"chunk-games", "4"}});
  const ProcessResult r = runShell(
      "cd " + dir_ +
      " || exit 1; MORNE loop train run --quiet > train.txt 2>&1 & t=$!; "
      "MORNE loop gate run --quiet > gate.txt 2>&1 & g=$!; "
      "for w in w1 w2 w3; do MORNE loop worker run --worker $w --jobs 1 --quiet > $w.txt 2>&1 & "
      "done; wait $t; echo \"train $?\"; wait $g; echo \"gate $?\"; wait; echo workers done");
  EXPECT_NE(r.output.find("train 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gate 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("workers done"), std::string::npos) << r.output;
  // Every shard under its writer's name; the workers' totals are the games in the shards.
  int64_t counted = 0;
  std::set<std::string> writers;
  for (const char* set : {"gen-000", "gen-001", "gen-002"}) {
    for (const std::string& shard : filesEndingWith(run_ + "/selfplay/" + set, ".h5")) {
      const std::string name = fs::path(shard).filename().string();
      writers.insert(name.substr(0, 2));
    }
    counted += gamesIn(run_ + "/selfplay/" + set);
  }
  int64_t reported = 0;
  for (const char* w : {"w1", "w2", "w3"})
    reported += readJson(run_ + "/workers/" + std::string(w) + ".json")["games"].get<int64_t>();
  EXPECT_EQ(writers, (std::set<std::string>{"w1", "w2", "w3"}));
  EXPECT_EQ(counted, reported);
  EXPECT_GE(gamesIn(run_ + "/selfplay/gen-000"), 40);
  EXPECT_EQ(readJson(run_ + "/latest.json")["data_set"], 2);
  const ProcessResult status = runMorne("loop status " + run_);
  EXPECT_NE(status.output.find("finished, 2 generations"), std::string::npos) << status.output;
  EXPECT_NE(status.output.find("worker:     w2 (stopped)"), std::string::npos) << status.output;
}

TEST_F(ScaleOut, TwoWorkersNeverShareAName) {
  init({{"generations", "1"}, {"bootstrap-games", "100000"}});
  const ProcessResult r = runShell(
      "cd " + dir_ +
      " || exit 1; MORNE loop worker run --worker same --jobs 1 --quiet >/dev/null 2>&1 & "
      "w=$!; " +
      waitFor("ls run/selfplay/gen-000/same-*") +
      "MORNE loop worker run --worker same --quiet; echo \"second $?\"; kill -INT $w; wait $w; "
      "echo \"first $?\"");
  EXPECT_NE(r.output.find("a worker named same already runs"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("second 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("first 130"), std::string::npos) << r.output;  // stopped as asked
}

TEST_F(ScaleOut, AWorkerKilledMidGameLosesThatGameOnly) {
  // Slow games (a deep search), so that the kill comes in the middle of one (the sanitizers
  // make every game some ten times slower).
  const bool sanitized = !std::string(MORNE_SANITIZERS).empty();
  init({{"generations", "1"},
        {"bootstrap", sanitized ? "mcts:sims=300" : "mcts:sims=2000"},
        {"bootstrap-games", "1000"},
        {"chunk-games", "1000"}});
  const ProcessResult killed = runShell(
      "cd " + dir_ +
      " || exit 1; MORNE loop worker run --worker doomed --jobs 1 --quiet >/dev/null "
      "2>&1 & w=$!; " +
      waitFor("test $(stat -c %s run/selfplay/gen-000/doomed-0-0000.h5.journal) -gt 2000") +
      "kill -KILL $w; wait $w; echo \"exit $?\"");
  ASSERT_NE(killed.output.find("exit 137"), std::string::npos) << killed.output;
  const std::string journal = run_ + "/selfplay/gen-000/doomed-0-0000.h5.journal";
  ASSERT_TRUE(fs::exists(journal));
  const auto finished = static_cast<int>(training::readJournal(journal).games.size());
  ASSERT_GE(finished, 1);
  // Another worker of the run recovers the dead one's journal into its shard.
  const ProcessResult other =
      runMorne("loop worker " + run_ + " --worker heir --jobs 1 --max-games 1 --quiet");
  ASSERT_EQ(other.exit_code, 0) << other.output;
  EXPECT_FALSE(fs::exists(journal));
  EXPECT_EQ(gamesIn(run_ + "/selfplay/gen-000"), finished + 1);
}

TEST_F(ScaleOut, AKilledLearnerResumesFromItsCheckpoint) {
  init({{"generations", "1"}, {"steps", "600"}, {"checkpoint-every", "50"}, {"max-reuse", "0"}});
  ASSERT_EQ(runMorne("loop worker " + run_ + " --worker w --max-games 40 --quiet").exit_code, 0);
  const ProcessResult killed =
      runShell("cd " + dir_ + " || exit 1; MORNE loop train run --quiet > train.txt 2>&1 & t=$!; " +
               waitFor("grep -q '^150,' run/train/metrics.csv") +
               "kill -KILL $t; wait $t; echo \"exit $?\"");
  ASSERT_NE(killed.output.find("exit 137"), std::string::npos) << killed.output;
  const ProcessResult resumed = runMorne("loop train " + run_ + " --quiet");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const size_t at = resumed.output.find("train: steps ");
  ASSERT_NE(at, std::string::npos) << resumed.output;
  // From the checkpoint before the kill (step 100 or later), not from step 0.
  EXPECT_GE(std::stoi(resumed.output.substr(at + 13)), 100) << resumed.output;
  EXPECT_EQ(readJson(run_ + "/train/gen-001.json")["train_step"], 600);
  EXPECT_TRUE(fs::exists(run_ + "/nets/candidate-gen-001.pt"));
}

TEST_F(ScaleOut, AWorkerNeverPlaysANetworkTheFolderDoesNotHoldWhole) {
  init({{"generations", "3"}});
  const std::string net = run_ + "/nets/gen-001.pt";
  ASSERT_EQ(runMorne("nn init --scenario duel --blocks 1 --channels 8 --value-hidden 8 --out " +
                     dir_ + "/whole.pt")
                .exit_code,
            0);
  // latest.json arrives before the network's bytes (a slow shared filesystem): the file
  // holds half of them.
  const ProcessResult r = runShell(
      "cd " + dir_ +
      " || exit 1; n=$(stat -c %s whole.pt) && c=$(gzip -c whole.pt | tail -c 8 | od -An "
      "-tu4 -N4 | tr -d ' ') && head -c $((n / 2)) whole.pt > run/nets/gen-001.pt && "
      "printf '{\"format\":\"morne-latest/1\",\"data_set\":1,\"network\":\"nets/gen-001.pt\","
      "\"network_generation\":1,\"bytes\":%s,\"crc32\":%s}' $n $c > run/latest.json && "
      "(MORNE loop worker run --worker w --jobs 1 --max-games 2 --quiet > worker.txt 2>&1 & "
      "echo $! > pid) && " +
      waitFor("grep -q 'not complete' run/log.txt") +
      "sleep 1; echo \"played while half there: $(ls run/selfplay/gen-001 2>/dev/null | wc -l)\"; "
      "cp whole.pt run/nets/gen-001.pt; "
      "wait $(cat pid) 2>/dev/null; " +
      waitFor("! kill -0 $(cat pid)") + "cat worker.txt");
  EXPECT_NE(r.output.find("nets/gen-001.pt is not complete in the folder yet (nets/gen-001.pt: "
                          "latest.json gives"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("played while half there: 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("model=" + net), std::string::npos) << r.output;
  EXPECT_EQ(gamesIn(run_ + "/selfplay/gen-001"), 2);
}

TEST_F(ScaleOut, TheDataParallelLearnerTrainsWithTwoRanksAndSurvivesLosingOne) {
  init({{"generations", "1"}, {"steps", "400"}, {"checkpoint-every", "50"}, {"max-reuse", "0"}});
  ASSERT_EQ(runMorne("loop worker " + run_ + " --worker w --max-games 40 --quiet").exit_code, 0);
  const std::string group =
      " --ranks 2 --group file://" + dir_ + "/store --quiet > rank";  // a fresh store each time
  const ProcessResult killed = runShell(
      "cd " + dir_ + " || exit 1; MORNE loop train run --rank 0" + group + "0.txt 2>&1 & a=$!; " +
      "MORNE loop train run --rank 1" + group + "1.txt 2>&1 & b=$!; " +
      waitFor("grep -q '^100,' run/train/metrics.csv") +
      "kill -KILL $b; wait $b; echo \"rank 1 $?\"; wait $a; echo \"rank 0 $?\"; cat rank0.txt");
  EXPECT_NE(killed.output.find("rank 1 137"), std::string::npos) << killed.output;
  EXPECT_EQ(killed.output.find("rank 0 0"), std::string::npos) << killed.output;
  EXPECT_NE(killed.output.find("did another rank stop?"), std::string::npos) << killed.output;
  fs::remove(dir_ + "/store");
  const ProcessResult resumed =
      runShell("cd " + dir_ + " || exit 1; MORNE loop train run --rank 0" + group +
               "0.txt 2>&1 & a=$!; " + "MORNE loop train run --rank 1" + group +
               "1.txt 2>&1 & b=$!; wait $a; echo \"rank 0 $?\"; "
               "wait $b; echo \"rank 1 $?\"; cat rank0.txt");
  EXPECT_NE(resumed.output.find("rank 0 0"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("rank 1 0"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find(", 2 ranks"), std::string::npos) << resumed.output;
  const size_t at = resumed.output.find("train: steps ");
  ASSERT_NE(at, std::string::npos) << resumed.output;
  EXPECT_GE(std::stoi(resumed.output.substr(at + 13)), 50) << resumed.output;  // not from 0
  EXPECT_EQ(readJson(run_ + "/train/gen-001.json")["train_step"], 400);
}

}  // namespace
}  // namespace morne::test
