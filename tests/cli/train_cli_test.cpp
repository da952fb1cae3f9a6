// `morne train` as a user runs it, against the real binary: it learns from self-play shards,
// writes its run folder (metrics, curves, checkpoint, a network that the agents load, with its
// provenance), refuses to overwrite a run and data that do not fit the network; and a run
// stopped by Ctrl-C or killed with SIGKILL, then resumed, ends with exactly the weights of an
// uninterrupted run (one thread). LibTorch and several processes: its own executable.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/cli/test_process.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

// A tiny network and settings quick enough for a test.
const std::string kTiny =
    " --blocks 1 --channels 8 --value-hidden 8 --batch 32 --warmup 10 --max-reuse 0 --quiet";

class TrainCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = freshTestDir("train");
    data_ = dir_ + "/selfplay";
    const ProcessResult r = runMorne(
        "selfplay --quiet --scenario duel --agent mcts:sims=8 "
        "--games 40 --rows-per-shard 400 --prefix t --out " +
        data_);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  // The weights checksum of a network file (`morne nn info`).
  static std::string checksum(const std::string& net) {
    const ProcessResult r = runMorne("nn info " + net);
    const size_t at = r.output.find("checksum ");
    return at == std::string::npos ? "(" + r.output + ")" : r.output.substr(at + 9, 16);
  }

  std::string dir_;
  std::string data_;
};

TEST_F(TrainCli, LearnsWritesItsRunFolderAndTheAgentsPlayTheNetwork) {
  const std::string run = dir_ + "/run";
  const ProcessResult r = runMorne("train --data " + data_ + " --out " + run +
                                   " --steps 40 --metrics-every 10" + kTiny);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("done: step 40 of 40"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("validation: policy"), std::string::npos) << r.output;
  for (const char* file : {"train.json", "checkpoint.pt", "net.pt", "metrics.csv", "curves.svg"})
    EXPECT_TRUE(fs::exists(run + "/" + file)) << file;
  const std::string metrics = read(run + "/metrics.csv");
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 5) << metrics;  // header + 4
  EXPECT_NE(metrics.find("\n40,1280,"), std::string::npos) << metrics;
  const std::string svg = read(run + "/curves.svg");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);

  const ProcessResult info = runMorne("nn info " + run + "/net.pt");
  EXPECT_NE(info.output.find("\"steps\": 40"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("\"validation\""), std::string::npos) << info.output;
  // The data folder relative to the run folder: no machine's path in the network file.
  EXPECT_NE(info.output.find("\"../selfplay\""), std::string::npos) << info.output;
  EXPECT_EQ(info.output.find(dir_), std::string::npos) << info.output;
  const ProcessResult play = runMorne("play --scenario duel --blue az:model=" + run +
                                      "/net.pt,sims=2 --orange random --seed 3");
  EXPECT_EQ(play.exit_code, 0) << play.output;

  const ProcessResult again = runMorne("train --data " + data_ + " --out " + run + kTiny);
  EXPECT_NE(again.exit_code, 0);
  EXPECT_NE(again.output.find("already holds a training run"), std::string::npos) << again.output;
  const ProcessResult changed = runMorne("train --resume " + run + " --lr 0.5");
  EXPECT_NE(changed.exit_code, 0);
  EXPECT_NE(changed.output.find("not --lr"), std::string::npos) << changed.output;
}

// The auxiliary heads train when their losses have weights: metrics.csv and curves.svg show
// them. A metrics.csv of an earlier morne (without their columns) is carried over on --resume,
// its rows kept, the new columns empty.
TEST_F(TrainCli, AuxiliaryHeadsAreTrainedAndShownAndOldMetricsFilesAreCarriedOver) {
  const std::string run = dir_ + "/aux";
  const ProcessResult r = runMorne("train --data " + data_ + " --out " + run +
                                   " --steps 20 --metrics-every 10 --checkpoint-every 10"
                                   " --margin-weight 1 --control-weight 1 --short-value-weight 1" +
                                   kTiny);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::istringstream metrics(read(run + "/metrics.csv"));
  std::string header, row;
  std::getline(metrics, header);
  std::getline(metrics, row);
  std::vector<std::string> names, cells;
  for (std::istringstream h(header); std::getline(h, names.emplace_back(), ',');) {
  }
  for (std::istringstream c(row); std::getline(c, cells.emplace_back(), ',');) {
  }
  for (const char* column : {"train_margin_loss", "val_control_loss", "val_short_value_baseline",
                             "val_value_side_baseline"}) {
    const auto at = std::find(names.begin(), names.end(), column);
    ASSERT_NE(at, names.end()) << column << " in " << header;
    EXPECT_GT(std::stod(cells.at(static_cast<size_t>(at - names.begin()))), 0) << column;
  }
  const std::string svg = read(run + "/curves.svg");
  for (const char* panel : {"margin loss", "final control loss", "short-term value loss"})
    EXPECT_NE(svg.find(panel), std::string::npos) << panel;

  // The metrics file as the morne before the auxiliary heads wrote it: its own columns only.
  const std::string old_header =
      "step,samples,seconds,learning_rate,train_policy_loss,train_policy_baseline,"
      "train_policy_top1,train_value_loss,train_value_baseline,train_value_sign,val_policy_loss,"
      "val_policy_baseline,val_policy_top1,val_value_loss,val_value_baseline,val_value_sign,"
      "weight_norm";
  std::ofstream(run + "/metrics.csv") << old_header << "\n10,320,0.5,0.02,1,2,0.1,0.5,1,0.6,1.1,2,"
                                      << "0.1,0.6,1,0.5,3.5\n";
  const ProcessResult more = runMorne("train --resume " + run + " --steps 30 --quiet");
  ASSERT_EQ(more.exit_code, 0) << more.output;
  const std::string carried = read(run + "/metrics.csv");
  EXPECT_EQ(carried.substr(0, carried.find('\n')), header) << carried;
  EXPECT_NE(carried.find(
                "\n10,320,0.5,0.02,1,2,0.1,0.5,1,0.6,,,,,,,,,,1.1,2,0.1,0.6,1,0.5,,,,,,,,,,3.5\n"),
            std::string::npos)
      << carried;
  EXPECT_NE(carried.find("\n30,"), std::string::npos) << carried;
}

TEST_F(TrainCli, ShippedConfigFilesAreAccepted) {
  const std::string configs = std::string(MORNE_SOURCE_DIR) + "/configs/";
  const ProcessResult train =
      runMorne("train --config " + configs + "train.cfg --data " + data_ + " --out " + dir_ +
               "/t --set steps=2 --set blocks=1 --set channels=8 --quiet");
  EXPECT_EQ(train.exit_code, 0) << train.output;
  for (const char* loop : {"loop-duel.cfg", "loop-crossing.cfg"}) {
    // The file as shipped, made tiny: one generation of a few games.
    const ProcessResult r = runMorne(
        "loop --config " + configs + loop + " --out " + dir_ + "/" + loop +
        " --set generations=1 --set bootstrap=mcts:sims=4 --set bootstrap-games=4 --set steps=2"
        " --set blocks=1 --set channels=8 --set ladder-rounds=1 --set ladder-agent=az:sims=2"
        " --set 'ladder-references=random' --quiet");
    EXPECT_EQ(r.exit_code, 0) << loop << "\n" << r.output;
  }
}

TEST_F(TrainCli, DataThatDoNotFitTheNetworkAreRefused) {
  const std::string net = dir_ + "/crossing.pt";
  ASSERT_EQ(runMorne("nn init --scenario crossing --blocks 1 --channels 8 --out " + net).exit_code,
            0);
  const ProcessResult r =
      runMorne("train --data " + data_ + " --out " + dir_ + "/run --net " + net + kTiny);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("do not fit the network (scenario crossing"), std::string::npos)
      << r.output;
  // Nothing was started: the same folder takes the corrected command.
  const ProcessResult fixed =
      runMorne("train --data " + data_ + " --out " + dir_ + "/run --steps 2" + kTiny);
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
}

// Issue 29: an any-map network trains on one scenario's data (duel) and the network it makes
// plays another map (crossing); it stays any-map.
TEST_F(TrainCli, AnAnyMapNetworkTrainedOnOneMapPlaysAnother) {
  const std::string net = dir_ + "/any.pt";
  ASSERT_EQ(runMorne("nn init --any-scenario --blocks 1 --channels 8 --value-hidden 8 --out " + net)
                .exit_code,
            0);
  const std::string run = dir_ + "/run";
  const ProcessResult r =
      runMorne("train --data " + data_ + " --out " + run + " --steps 20 --net " + net + kTiny);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const ProcessResult info = runMorne("nn info " + run + "/net.pt");
  EXPECT_NE(info.output.find("scenario:        any\n"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("\"steps\": 20"), std::string::npos) << info.output;
  EXPECT_NE(checksum(run + "/net.pt"), checksum(net));
  const ProcessResult play = runMorne("play --scenario crossing --blue az:model=" + run +
                                      "/net.pt,sims=2 --orange rule --seed 4");
  EXPECT_EQ(play.exit_code, 0) << play.output;
  EXPECT_NE(play.output.find("result: "), std::string::npos) << play.output;
}

// Issue 29: shards of two scenarios train one any-map network, each batch one scenario's, in
// the stated shares; a run stopped and resumed makes the network of one run through; shares that
// do not match the data are refused with what the data hold.
TEST_F(TrainCli, AnAnyMapNetworkTrainsOnTwoScenariosInShares) {
  const std::string pyramids = dir_ + "/pyramids";
  ASSERT_EQ(runMorne("selfplay --quiet --scenario pyramids --agent mcts:sims=4 --games 6 "
                     "--rows-per-shard 400 --prefix p --out " +
                     pyramids)
                .exit_code,
            0);
  const std::string net = dir_ + "/any.pt";
  ASSERT_EQ(runMorne("nn init --any-scenario --blocks 1 --channels 8 --value-hidden 8 --out " + net)
                .exit_code,
            0);
  const std::string data = " --data " + data_ + " --data " + pyramids + " --net " + net;
  auto refused = [&](const std::string& shares, const std::string& reason) {
    const ProcessResult r =
        runMorne("train" + data + " --out " + dir_ + "/refused --steps 4" + shares + kTiny);
    EXPECT_NE(r.exit_code, 0) << shares;
    EXPECT_NE(r.output.find(reason), std::string::npos) << shares << ": " << r.output;
  };
  refused("", "with --shares");
  refused(" --shares duel=1,pyramids=1,crossing=1",
          "\"crossing\", of which the data hold no shard");
  refused(" --shares duel=1", "\"pyramids\", which --shares does not name");
  refused(" --shares duel=x", "\"duel=x\" is not SCENARIO=WEIGHT");

  const std::string whole = dir_ + "/whole", parts = dir_ + "/parts";
  const std::string shares = " --shares duel=1,pyramids=3 --checkpoint-every 10";
  const ProcessResult r =
      runMorne("train" + data + " --out " + whole + " --steps 40" + shares + kTiny);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("done: step 40 of 40"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("validation: policy"), std::string::npos) << r.output;
  ASSERT_EQ(runMorne("train" + data + " --out " + parts + " --steps 20" + shares + kTiny).exit_code,
            0);
  const ProcessResult resumed = runMorne("train --resume " + parts + " --steps 40 --quiet");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(checksum(parts + "/net.pt"), checksum(whole + "/net.pt"));
  const ProcessResult play = runMorne("play --scenario pyramids --blue az:model=" + whole +
                                      "/net.pt,sims=2 --orange rule --seed 4");
  EXPECT_EQ(play.exit_code, 0) << play.output;
}

// A checkpoint damaged on disk (64 bytes of its archive's code record, or of its middle)
// is refused by --resume as a damaged checkpoint (exit 2) with a one-line reason, never an
// internal error or a parser's dump; the same for a damaged network file.
TEST_F(TrainCli, DamagedCheckpointsAndNetworksAreRefusedWithTheirPath) {
  const std::string run = dir_ + "/run";
  ASSERT_EQ(runMorne("train --data " + data_ + " --out " + run + " --steps 20" + kTiny).exit_code,
            0);
  const std::string checkpoint = read(run + "/checkpoint.pt");
  const std::string network = read(run + "/net.pt");
  std::vector<std::pair<std::string, std::string>> damaged;  // file, bytes
  for (const std::string* original : {&checkpoint, &network}) {
    const std::string file = original == &checkpoint ? "/checkpoint.pt" : "/net.pt";
    const size_t code = original->find("class ");  // TorchScript code, stored as text
    ASSERT_NE(code, std::string::npos);
    for (size_t at : {code, original->size() / 2}) {
      std::string bytes = *original;
      for (size_t i = 0; i < 64 && at + i < bytes.size(); ++i)
        bytes[at + i] = static_cast<char>((i * 37 + 11) % 256);
      damaged.emplace_back(file, bytes);
    }
  }
  for (const auto& [file, bytes] : damaged) {
    std::ofstream(run + file, std::ios::binary) << bytes;
    const ProcessResult r = file == "/net.pt" ? runMorne("nn info " + run + file)
                                              : runMorne("train --resume " + run + " --quiet");
    EXPECT_EQ(r.exit_code, 2) << file << ": " << r.output;
    EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(run + file), std::string::npos) << r.output;
    EXPECT_LT(std::count(r.output.begin(), r.output.end(), '\n'), 4) << r.output;
    std::ofstream(run + file, std::ios::binary) << (file == "/net.pt" ? network : checkpoint);
  }
}

TEST_F(TrainCli, InterruptedOrKilledThenResumedEqualsUninterrupted) {
  // Shorter under the sanitizers (every step there is some ten times slower).
  const int steps = std::string(MORNE_SANITIZERS).empty() ? 600 : 240;
  const std::string settings = " --steps " + std::to_string(steps) +
                               " --metrics-every 20 --checkpoint-every 50 --validation-rows 64" +
                               kTiny;
  const ProcessResult whole =
      runMorne("train --data " + data_ + " --out " + dir_ + "/whole" + settings);
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  const std::string expected = checksum(dir_ + "/whole/net.pt");

  for (const char* signal : {"INT", "KILL"}) {
    const std::string run = dir_ + "/" + signal;
    // Stopped once metrics.csv has a row of steps 100 to 199 (mid-run, between checkpoints).
    const ProcessResult stopped =
        runShell("MORNE train --data " + data_ + " --out " + run + settings + " & pid=$!; " +
                 "for i in $(seq 3000); do grep -qE '^1[0-9][0-9],' " + run +
                 "/metrics.csv 2>/dev/null && break; sleep 0.02; done; kill -" + signal +
                 " $pid; wait $pid; echo \"exit $?\"");
    EXPECT_NE(stopped.output.find(std::string("exit ") + (signal[0] == 'I' ? "130" : "137")),
              std::string::npos)
        << signal << ": " << stopped.output;
    const ProcessResult resumed = runMorne("train --resume " + run + " --quiet");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_NE(resumed.output.find("resumed at step "), std::string::npos) << resumed.output;
    const std::string last = std::to_string(steps);
    EXPECT_EQ(resumed.output.find("resumed at step " + last), std::string::npos)
        << signal << " came after the run ended: " << resumed.output;
    EXPECT_EQ(checksum(run + "/net.pt"), expected) << signal;
    const std::string metrics = read(run + "/metrics.csv");
    EXPECT_EQ(metrics.find("\n" + last + ","), metrics.rfind("\n" + last + ","))
        << "a metrics row twice";
  }
}

}  // namespace
}  // namespace morne::test
