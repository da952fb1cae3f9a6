// The damaged-file matrix of a learning run (docs/reliability.md, "A damaged run folder"):
// every file of a run folder after one generation, truncated, with random bytes in its middle,
// or filled with zeros (and latest.json with a wrong CRC-32 or a network outside the folder, a
// self-play journal damaged in the same three ways), then `morne loop --resume` to the next
// generation. Each case must end in a recovery with a message, a rebuilt file, or a refusal
// naming the file (exit 2): never a hang, a crash, an internal error, or a file deleted.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "env/rng.h"
#include "tests/cli/test_process.h"
#include "tests/file_bytes.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

// One generation of a tiny network in alternate mode: a few seconds.
const std::string kTinyRun =
    " --scenario duel --generations 1 --bootstrap mcts:sims=10 --bootstrap-games 8 --games 4"
    " --agent az:sims=4,gumbel=1 --gate-agent az:sims=2 --gate-rounds 1 --ladder-rounds 1"
    " --ladder-agent az:sims=2 --ladder-references random --blocks 1 --channels 8"
    " --value-hidden 8 --batch 16 --steps 10 --metrics-every 5 --validation-rows 16 --quiet";

// What a damaged file must lead to.
enum class Outcome {
  kRecovered,  // exit 0, and the output says what was done (the text given)
  kRebuilt,    // exit 0: an output of the run, written again
  kRefused,    // exit 2, naming the file
};

struct Expected {
  Outcome outcome;
  const char* says = "";  // kRecovered: part of the message
};

// Every file of the run folder, with what its damage must lead to. The test fails on a file
// the table does not name: a new file of the run folder needs its row.
const std::map<std::string, Expected> kRules = {
    {"latest.json", {Outcome::kRecovered, "published again"}},
    {"workers/loop.json", {Outcome::kRecovered, "kept as"}},
    {"selfplay/gen-001/stray-0000.h5.journal", {Outcome::kRecovered, "kept as"}},
    {"elo.svg", {Outcome::kRebuilt}},
    {"summary.json", {Outcome::kRebuilt}},
    {"log.txt", {Outcome::kRebuilt}},  // appended to
    {"train/curves.svg", {Outcome::kRebuilt}},
    {"nets/candidate-gen-001.pt", {Outcome::kRebuilt}},  // read by no later step
    {"loop.json", {Outcome::kRefused}},
    {"gates/state.json", {Outcome::kRefused}},
    {"gates/gen-001.json", {Outcome::kRefused}},
    {"ladder/gen-001.json", {Outcome::kRefused}},
    {"train/learner.json", {Outcome::kRefused}},
    {"train/gen-001.json", {Outcome::kRefused}},
    {"train/metrics.csv", {Outcome::kRefused}},
    {"train/checkpoint.pt", {Outcome::kRefused}},
    {"train/net.pt", {Outcome::kRefused}},
    {"nets/gen-001.pt", {Outcome::kRefused}},
    {"selfplay/gen-000/loop-0-0000.h5", {Outcome::kRefused}},
};

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string damaged(const std::string& bytes, const std::string& kind, env::Rng& rng) {
  if (kind == "truncate") return bytes.substr(0, bytes.size() / 2);
  if (kind == "zero") return std::string(bytes.size(), '\0');
  std::string out = bytes;  // "random": 64 random bytes in the middle
  for (size_t i = out.size() / 2; i < out.size() && i < out.size() / 2 + 64; ++i)
    out[i] = static_cast<char>(rng.below(256));
  return out;
}

class RunDamage : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = freshTestDir("damage");
    base_ = dir_ + "/base";
    const ProcessResult r = runMorne("loop --out " + base_ + kTinyRun);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    // A journal of a killed self-play run, to be found in the next data set.
    const std::string killed = dir_ + "/killed";
    runShell(
        "MORNE selfplay --quiet --scenario duel --agent mcts:sims=10 --games 100000 "
        "--rows-per-shard 1000000 --prefix stray --out " +
        killed + " & pid=$!; for i in $(seq 600); do ls " + killed +
        "/*.journal >/dev/null 2>&1 && break; sleep 0.1; done; sleep 1; kill -KILL $pid; "
        "wait $pid");
    const std::vector<std::string> journals = filesEndingWith(killed, ".h5.journal");
    ASSERT_EQ(journals.size(), 1u);
    fs::create_directories(base_ + "/selfplay/gen-001");
    fs::copy_file(journals[0], base_ + "/selfplay/gen-001/stray-0000.h5.journal");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The files of the base run, relative to it (locks aside).
  std::vector<std::string> runFiles() const {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(base_)) {
      if (e.is_regular_file() && e.path().extension() != ".lock")
        out.push_back(fs::relative(e.path(), base_).string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Copies the base run, lets `damage` change it, resumes to generation 2, and checks the
  // outcome `expected` for `file`.
  void resumeAfter(const std::string& file, const std::string& what, const Expected& expected,
                   const std::function<void(const std::string&)>& damage) const {
    const std::string run = dir_ + "/case";
    fs::remove_all(run);
    fs::copy(base_, run, fs::copy_options::recursive);
    damage(run + "/" + file);
    const ProcessResult r = runShell("timeout 300 MORNE loop --resume " + run +
                                     " --generations 2 --quiet 2>&1; echo \"exit $?\"");
    const std::string where = file + " (" + what + "):\n" + r.output;
    EXPECT_EQ(r.output.find("internal error"), std::string::npos) << where;
    switch (expected.outcome) {
      case Outcome::kRecovered:
        EXPECT_NE(r.output.find("exit 0"), std::string::npos) << where;
        EXPECT_NE(r.output.find(expected.says), std::string::npos) << where;
        break;
      case Outcome::kRebuilt:
        EXPECT_NE(r.output.find("exit 0"), std::string::npos) << where;
        break;
      case Outcome::kRefused:
        EXPECT_NE(r.output.find("exit 2"), std::string::npos) << where;
        EXPECT_NE(r.output.find(file), std::string::npos) << where;
        break;
    }
    // Nothing is deleted: every file is still there, or kept aside as damaged.
    for (const std::string& f : runFiles()) {
      const bool kept = fs::exists(run + "/" + f) || fs::exists(run + "/" + f + ".damaged");
      const bool recovered = f.ends_with(".journal");  // became a shard (and kept as damaged)
      EXPECT_TRUE(kept || recovered) << f << " is gone after damage to " << where;
    }
  }

  std::string dir_;
  std::string base_;
};

// Binary files (networks, checkpoints, shards, journals) take the three kinds of damage in turn,
// in the files' sorted order, so that each kind meets a network that must be refused; a text
// file refuses or recovers the same way whatever its damage, so it gets random bytes. Under the
// sanitizers (every run some ten times slower), the files recovered and one of each format.
TEST_F(RunDamage, EveryFileTruncatedRandomisedOrZeroed) {
  const std::vector<std::string> files = runFiles();
  ASSERT_GE(files.size(), kRules.size());
  const bool sanitized = !std::string(MORNE_SANITIZERS).empty();
  env::Rng rng(25);
  const std::vector<std::string> kinds = {"truncate", "random", "zero"};
  int binaries = 0;
  int cases = 0;
  for (const std::string& file : files) {
    const auto rule = kRules.find(file);
    ASSERT_NE(rule, kRules.end()) << file << ": a run file without a row in kRules";
    const bool binary =
        file.ends_with(".pt") || file.ends_with(".h5") || file.ends_with(".journal");
    if (sanitized && rule->second.outcome != Outcome::kRecovered && file != "train/checkpoint.pt" &&
        file != "selfplay/gen-000/loop-0-0000.h5" && file != "gates/state.json")
      continue;
    const std::string kind = binary && !sanitized ? kinds[binaries++ % kinds.size()] : "random";
    resumeAfter(file, kind, rule->second, [&](const std::string& path) {
      writeBytes(path, damaged(fileBytes(path), kind, rng));
    });
    ++cases;
  }
  std::cout << cases << " damaged run folders resumed\n";
}

// latest.json naming the best network with another CRC-32, or a file outside the run folder
// (which was read to compute its CRC): published again from the gate's record.
TEST_F(RunDamage, LatestJsonThatLiesIsPublishedAgain) {
  const auto edit = [](const std::string& key, const nlohmann::json& value) {
    return [key, value](const std::string& path) {
      nlohmann::json latest = nlohmann::json::parse(fileBytes(path));
      latest[key] = key == "crc32" ? nlohmann::json(latest["crc32"].get<uint32_t>() ^ 1u) : value;
      writeBytes(path, latest.dump());
    };
  };
  resumeAfter("latest.json", "wrong CRC-32", {Outcome::kRecovered, "published again"},
              edit("crc32", nullptr));
  resumeAfter("latest.json", "network outside the folder",
              {Outcome::kRecovered, "is not a file inside the run folder"},
              edit("network", "../../../../etc/passwd"));
  resumeAfter("latest.json", "network absolute", {Outcome::kRecovered, "published again"},
              edit("network", "/etc/passwd"));
}

}  // namespace
}  // namespace morne::test
