// `morne loop` as a user runs it, against the real binary: two generations of a tiny network
// end to end (self-play, training, gate, ladder, the run folder and `loop status`), and runs
// killed with SIGKILL at several moments that resume to the same end without losing or
// repeating a game. LibTorch and several processes: in the train_tests executable.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/test_process.h"
#include "training/training_data.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

// Two generations of a tiny network, quick enough for a test.
const std::string kTinyLoop =
    " --scenario duel --generations 2 --bootstrap mcts:sims=20 --games 16"
    " --agent az:sims=8,gumbel=1 --gate-agent az:sims=4 --gate-rounds 2 --ladder-rounds 1"
    " --ladder-agent az:sims=4 --ladder-references 'rule random' --blocks 1 --channels 8"
    " --value-hidden 8 --batch 32 --metrics-every 25 --validation-rows 64 --quiet";

class LoopCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = freshTestDir("loop"); }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  }

  static nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
  }

  // Games in the shards of a self-play folder, every shard read whole (in this process: a
  // `morne data inspect` a shard cost 0.7 s of start-up each, a minute for a run's 90 shards).
  static int gamesIn(const std::string& dir) {
    if (filesEndingWith(dir, ".h5").empty()) return 0;
    return static_cast<int>(training::indexShards({dir}, 0).games);
  }

  std::string dir_;
};

TEST_F(LoopCli, TwoGenerationsEndToEnd) {
  const std::string run = dir_ + "/run";
  const ProcessResult r =
      runMorne("loop --out " + run + " --steps 50 --bootstrap-games 40" + kTinyLoop);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("[gen-001] gate: the first network is promoted"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("[gen-002] gate: candidate"), std::string::npos) << r.output;
  for (const char* file : {"loop.json", "latest.json", "summary.json", "elo.svg", "log.txt",
                           "nets/gen-001.pt", "nets/candidate-gen-002.pt", "gates/gen-002.json",
                           "gates/state.json", "ladder/gen-001.json", "train/learner.json",
                           "train/metrics.csv", "train/curves.svg", "workers/loop.json"})
    EXPECT_TRUE(fs::exists(run + "/" + file)) << file;
  EXPECT_EQ(gamesIn(run + "/selfplay/gen-000"), 40);
  EXPECT_EQ(gamesIn(run + "/selfplay/gen-001"), 16);
  EXPECT_FALSE(fs::exists(run + "/selfplay/gen-002"));  // played when a generation 3 comes
  const nlohmann::json summary = readJson(run + "/summary.json");
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(summary["generations"][1]["train_step"], 50);
  EXPECT_EQ(summary["generations"][2]["train_step"], 100);
  EXPECT_TRUE(summary["generations"][1].contains("elo"));
  const nlohmann::json state = readJson(run + "/gates/state.json");
  EXPECT_EQ(state["laddered_generation"], state["best_generation"]);  // not rated again
  const nlohmann::json gate = readJson(run + "/gates/gen-002.json")["gate"];
  EXPECT_EQ(gate["wins"].get<int>() + gate["draws"].get<int>() + gate["losses"].get<int>(), 4);
  const nlohmann::json latest = readJson(run + "/latest.json");
  EXPECT_EQ(latest["data_set"], 2);
  EXPECT_EQ(latest["network"], state["best"]);
  const ProcessResult info = runMorne("nn info " + run + "/nets/gen-001.pt");
  EXPECT_NE(info.output.find("\"generation\": 1"), std::string::npos) << info.output;
  // The run by its folder's name, the data relative to the run's training folder: a network
  // file names no machine's paths.
  EXPECT_NE(info.output.find("\"loop\": \"run\""), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("\"../selfplay/gen-000\""), std::string::npos) << info.output;
  EXPECT_EQ(info.output.find(dir_), std::string::npos) << info.output;

  const ProcessResult status = runMorne("loop status " + run);
  EXPECT_EQ(status.exit_code, 0) << status.output;
  EXPECT_NE(status.output.find("finished, 2 generations"), std::string::npos) << status.output;
  EXPECT_NE(status.output.find("first"), std::string::npos) << status.output;

  EXPECT_NE(runMorne("loop --out " + run + " --bootstrap-games 40" + kTinyLoop).exit_code,
            0);  // never overwritten
  const ProcessResult more = runMorne("loop --resume " + run + " --generations 3 --quiet");
  ASSERT_EQ(more.exit_code, 0) << more.output;
  EXPECT_NE(more.output.find("[gen-003] gate"), std::string::npos) << more.output;
  EXPECT_EQ(more.output.find("[gen-004]"), std::string::npos) << more.output;  // 3, not more
  EXPECT_EQ(readJson(run + "/loop.json")["loop"]["generations"], 3);
  EXPECT_EQ(gamesIn(run + "/selfplay/gen-002"), 16);

  // The joint ladder: generations 1 and 3 with two references, rated together; more rounds
  // resume it; another line-up in the same folder is refused.
  const std::string ladder = "loop ladder " + run +
                             " --generations 1,3 --references 'random rule' --agent az:sims=2 "
                             "--jobs 2 --quiet --rounds ";
  const ProcessResult joint = runMorne(ladder + "2");
  ASSERT_EQ(joint.exit_code, 0) << joint.output;
  const nlohmann::json progress = readJson(run + "/ladder/joint/generations.json");
  ASSERT_EQ(progress["generations"].size(), 2u) << progress.dump();
  EXPECT_EQ(progress["anchor"], "random");
  EXPECT_EQ(progress["generations"][1]["generation"], 3);
  EXPECT_TRUE(progress["generations"][1].contains("elo")) << progress.dump();
  EXPECT_GT(progress["generations"][1]["cpu_hours"].get<double>(),
            progress["generations"][0]["cpu_hours"].get<double>());
  EXPECT_TRUE(fs::exists(run + "/ladder/joint/progress.svg"));
  const ProcessResult extended = runMorne(ladder + "3");
  ASSERT_EQ(extended.exit_code, 0) << extended.output;
  EXPECT_NE(extended.output.find("resuming with 24 games already played"), std::string::npos)
      << extended.output;  // 4 players, 6 pairs, 2 rounds of 2 games
  const ProcessResult other = runMorne("loop ladder " + run + " --generations 1,2 --quiet");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_NE(other.output.find("--force"), std::string::npos) << other.output;
}

// A warm start: the network given with --init is copied into the run byte for byte, plays
// data set 0 as the self-play agent (no bootstrap agent), is the network generation 1 trains
// from and gates against, and stays the run's after the file given is gone.
TEST_F(LoopCli, AWarmStartPlaysAndTrainsFromTheGivenNetwork) {
  const std::string start = dir_ + "/start.pt";
  ASSERT_EQ(
      runMorne("nn init --scenario duel --blocks 1 --channels 8 --value-hidden 8 --out " + start)
          .exit_code,
      0);
  const std::string run = dir_ + "/run";
  const ProcessResult r = runMorne("loop --out " + run + " --init " + start +
                                   " --steps 20 --bootstrap-games 16" + kTinyLoop);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string copy = run + "/nets/gen-000.pt";
  ASSERT_TRUE(fs::exists(copy));
  EXPECT_EQ(readFile(copy), readFile(start));
  EXPECT_NE(r.output.find("[gen-000] selfplay loop: 16 games of az:sims=8,gumbel=1,model=" + copy),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("from " + copy), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[gen-001] gate: candidate"), std::string::npos) << r.output;
  EXPECT_EQ(readJson(run + "/gates/gen-001.json")["gate"]["against"], "nets/gen-000.pt");
  EXPECT_EQ(gamesIn(run + "/selfplay/gen-000"), 16);

  fs::remove(start);
  const ProcessResult more = runMorne("loop --resume " + run + " --generations 3 --quiet");
  ASSERT_EQ(more.exit_code, 0) << more.output;
  EXPECT_NE(more.output.find("[gen-003] gate"), std::string::npos) << more.output;

  // Refused before anything is made: a network of another scenario, --init with --net.
  const std::string other = dir_ + "/crossing.pt";
  ASSERT_EQ(
      runMorne("nn init --scenario crossing --blocks 1 --channels 8 --out " + other).exit_code, 0);
  const ProcessResult wrong = runMorne("loop --out " + dir_ + "/wrong --init " + other + kTinyLoop);
  EXPECT_EQ(wrong.exit_code, 2) << wrong.output;
  EXPECT_NE(wrong.output.find("cannot play \"duel\""), std::string::npos) << wrong.output;
  EXPECT_FALSE(fs::exists(dir_ + "/wrong/loop.json"));
  const ProcessResult both =
      runMorne("loop --out " + dir_ + "/both --init " + copy + " --net " + copy + kTinyLoop);
  EXPECT_EQ(both.exit_code, 2) << both.output;
  EXPECT_NE(both.output.find("--init or --net"), std::string::npos) << both.output;

  // Issue 29: the run's duel network made any-map starts a run of another scenario, and the
  // networks that run trains stay any-map.
  const std::string any = dir_ + "/any.pt";
  ASSERT_EQ(runMorne("nn init --any-scenario --from " + copy + " --out " + any).exit_code, 0);
  const std::string pyramids = dir_ + "/pyramids";
  std::string tiny_pyramids = kTinyLoop;
  tiny_pyramids.replace(tiny_pyramids.find("duel"), 4, "pyramids");
  tiny_pyramids.replace(tiny_pyramids.find("--generations 2"), 15, "--generations 1");
  const ProcessResult moved = runMorne("loop --out " + pyramids + " --init " + any +
                                       " --steps 10 --bootstrap-games 8" + tiny_pyramids);
  ASSERT_EQ(moved.exit_code, 0) << moved.output;
  EXPECT_EQ(readFile(pyramids + "/nets/gen-000.pt"), readFile(any));
  const ProcessResult info = runMorne("nn info " + pyramids + "/nets/candidate-gen-001.pt");
  EXPECT_NE(info.output.find("scenario:        any\n"), std::string::npos) << info.output;
}

// Issue 29: with --start-share, every data set archives a position a game and the network's
// games start that share from the archives of the data sets before (Go-Exploit).
TEST_F(LoopCli, ArchiveStartsFeedTheNextDataSets) {
  const std::string run = dir_ + "/run";
  const ProcessResult r = runMorne(
      "loop --out " + run + " --start-share 0.5 --steps 10 --bootstrap-games 16" + kTinyLoop);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(run + "/selfplay/gen-000/loop-0.positions.json"));
  EXPECT_TRUE(fs::exists(run + "/selfplay/gen-001/loop-1.positions.json"));
  const std::string log = readFile(run + "/log.txt");
  EXPECT_NE(log.find("[gen-001] selfplay loop: 16 archived positions of 1 data set(s) start 50% "
                     "of the games"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("started from archived positions"), std::string::npos) << log;
}

TEST_F(LoopCli, ProcessesModeRunsTheRolesAtOnce) {
  const std::string run = dir_ + "/run";
  const ProcessResult r =
      runMorne("loop --out " + run +
               " --mode processes --workers 2 --jobs 1 --chunk-games 8 --steps 50"
               " --bootstrap-games 40" +
               kTinyLoop);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("loop: done"), std::string::npos) << r.output;
  EXPECT_GE(gamesIn(run + "/selfplay/gen-000"), 40);  // the workers play on while it trains
  EXPECT_GE(gamesIn(run + "/selfplay/gen-001"), 16);
  for (const char* worker : {"local-0", "local-1"}) {
    EXPECT_GT(readJson(run + "/workers/" + worker + ".json")["games"].get<int>(), 0) << worker;
  }
  for (const std::string& shard : filesEndingWith(run + "/selfplay/gen-000", ".h5")) {
    const std::string name = fs::path(shard).filename().string();
    EXPECT_TRUE(name.rfind("local-0-", 0) == 0 || name.rfind("local-1-", 0) == 0) << name;
  }
  const nlohmann::json summary = readJson(run + "/summary.json");
  EXPECT_EQ(summary["generations"][2]["train_step"], 100);
  EXPECT_TRUE(fs::exists(run + "/nets/candidate-gen-002.pt"));
}

TEST_F(LoopCli, KilledAtAnyStepResumesWithoutLosingOrRepeatingGames) {
  // Killed while generation 0 plays, while generation 1 trains, while it plays.
  const char* moments[] = {"selfplay/gen-000", "\\[gen-001\\] train: steps",
                           "\\[gen-001\\] selfplay loop: 16"};
  // Smaller under the sanitizers (every step there is some ten times slower).
  const bool sanitized = !std::string(MORNE_SANITIZERS).empty();
  const int steps = sanitized ? 100 : 300, bootstrap_games = sanitized ? 60 : 200;
  for (int k = 0; k < 3; ++k) {
    const std::string moment = moments[k];
    const std::string run = dir_ + "/run-" + std::to_string(k);
    const std::string wait = moment.rfind("selfplay/", 0) == 0
                                 ? "ls " + run + "/" + moment + "/*.journal"
                                 : "grep -q '" + moment + "' " + run + "/log.txt";
    const ProcessResult killed =
        runShell("MORNE loop --out " + run + " --steps " + std::to_string(steps) +
                 " --bootstrap-games " + std::to_string(bootstrap_games) + kTinyLoop +
                 " >/dev/null 2>&1 & pid=$!; for i in $(seq 3000); do " + wait +
                 " >/dev/null 2>&1 && break; sleep 0.01; done; kill -KILL $pid; wait $pid; echo "
                 "\"exit $?\"");
    EXPECT_NE(killed.output.find("exit 137"), std::string::npos) << moment << killed.output;
    const ProcessResult resumed = runMorne("loop --resume " + run + " --quiet");
    ASSERT_EQ(resumed.exit_code, 0) << moment << resumed.output;
    EXPECT_NE(resumed.output.find("loop: done"), std::string::npos) << resumed.output;
    EXPECT_EQ(gamesIn(run + "/selfplay/gen-000"), bootstrap_games) << moment;
    EXPECT_EQ(gamesIn(run + "/selfplay/gen-001"), 16) << moment;
    const nlohmann::json summary = readJson(run + "/summary.json");
    EXPECT_EQ(summary["generations"][2]["train_step"], 2 * steps) << moment;
  }
}

}  // namespace
}  // namespace morne::test
