// The records of a generation (loop/generation_record.h): what is written is read back whole, a
// damaged one is refused naming its file and key, and the run's summary holds every key
// scripts/model-card.py reads.
#include "loop/generation_record.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "env/error.h"
#include "loop/loop_config.h"
#include "loop/run_summary.h"

namespace morne {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

loop::TrainRecord trainRecord(int g) {
  loop::TrainRecord r;
  r.generation = g;
  r.train_step = 40 * g;
  r.waited_seconds = 1.5;
  r.candidate = "nets/candidate-" + loop::generationName(g) + ".pt";
  r.cpu_hours = 0.25 * g;
  nn::LossReport losses;
  losses.policy_loss = 1.25;
  losses.value_loss = 0.5;
  losses.value_baseline = 1;
  r.losses = losses;
  return r;
}

loop::GateRecord gateRecord(int g) {
  loop::GateRecord r;
  r.generation = g;
  r.promoted = true;
  r.cpu_hours = 0.5 * g;
  r.averaged = {{"nets/candidate-002.pt", 1}, {"nets/candidate-001.pt", 0.5}};
  loop::GateMatch m;
  m.against = "nets/gen-001.pt";
  m.rule = "sprt";
  m.promoted = true;
  m.games = loop::GateGames{9, 2, 5, 0.25, 0.125};
  m.sprt = loop::SprtRecord{0, 35, 0.05, 0.05, 8, 3.5, {-2.94, 2.94}, "H1"};
  r.match = m;
  return r;
}

loop::LadderRecord ladderRecord(int g) {
  loop::LadderRecord r;
  r.generation = g;
  r.elo = 120;
  r.elo_low = 40;  // elo_high: unbounded
  r.anchor = "rule";
  r.scores = {{"rule", 0.625}, {"random", 1}};
  r.rated = "nets/gen-001.pt";
  r.cpu_hours = 0.75 * g;
  return r;
}

TEST(GenerationRecord, EachRecordIsReadBackAsWritten) {
  const json train = loop::recordJson(trainRecord(2));
  EXPECT_EQ(train["policy_loss"], 1.25);
  EXPECT_FALSE(train.contains("exchange_ms_per_step"));
  EXPECT_EQ(loop::recordJson(loop::readTrainRecordJson("t", train)), train);
  loop::TrainRecord exchanged = trainRecord(2);
  exchanged.losses.reset();
  exchanged.exchange = loop::ExchangeFigures{1.5, 1000, 4000};
  const json e = loop::recordJson(exchanged);
  EXPECT_FALSE(e.contains("policy_loss"));
  EXPECT_EQ(loop::recordJson(loop::readTrainRecordJson("t", e)), e);

  const json gate = loop::recordJson(gateRecord(2));
  EXPECT_EQ(gate["gate"]["score"], (9 + 0.5 * 2) / 16);
  EXPECT_EQ(gate["gate"]["verdict"], "H1");
  EXPECT_EQ(gate["averaged"].size(), 2u);
  EXPECT_EQ(loop::recordJson(loop::readGateRecordJson("g", gate)), gate);
  loop::GateRecord first;  // promoted without a gate: no match, nothing averaged
  first.generation = 1;
  first.promoted = true;
  const json f = loop::recordJson(first);
  EXPECT_FALSE(f.contains("gate"));
  EXPECT_FALSE(f.contains("averaged"));
  EXPECT_EQ(loop::recordJson(loop::readGateRecordJson("g", f)), f);

  const json ladder = loop::recordJson(ladderRecord(2));
  EXPECT_TRUE(ladder["elo_high"].is_null());
  EXPECT_EQ(ladder["scores"]["rule"], 0.625);
  EXPECT_EQ(loop::recordJson(loop::readLadderRecordJson("l", ladder)), ladder);
}

// The message of the ConfigError `read` throws ("" when it throws none).
template <class Read>
std::string refusal(Read read) {
  try {
    read();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(GenerationRecord, ADamagedRecordIsRefusedNamingItsFileAndKey) {
  json train = loop::recordJson(trainRecord(1));
  train.erase("candidate");
  EXPECT_EQ(refusal([&] { loop::readTrainRecordJson("RUN/train/gen-001.json", train); }),
            "RUN/train/gen-001.json: no \"candidate\"");
  train = loop::recordJson(trainRecord(1));
  train["value_loss"] = "low";
  EXPECT_EQ(refusal([&] { loop::readTrainRecordJson("T", train); }),
            "T: \"value_loss\" has the wrong type");
  json gate = loop::recordJson(gateRecord(2));
  gate["gate"]["verdict"] = "maybe";
  EXPECT_EQ(refusal([&] { loop::readGateRecordJson("G", gate); }),
            "G (gate): \"verdict\" must be one of H1, H0, cap (got \"maybe\")");
  gate = loop::recordJson(gateRecord(2));
  gate["gate"]["wins"] = -1;
  EXPECT_NE(refusal([&] { loop::readGateRecordJson("G", gate); }).find("\"wins\" must be"),
            std::string::npos);
  json ladder = loop::recordJson(ladderRecord(2));
  ladder["scores"] = "all";
  EXPECT_EQ(refusal([&] { loop::readLadderRecordJson("L", ladder); }),
            "L: \"scores\" has the wrong type");
}

class GenerationFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("morne_generations_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    config_.loop.scenario = "duel";
    config_.loop.generations = 2;
    config_.loop.bootstrap = "random";
    config_.loop.jobs = 1;
    loop::writeLoopRecord(dir_.string(), config_);
    run_.emplace(loop::openRun(config_, dir_.string(), true, nullptr));
  }
  void TearDown() override { fs::remove_all(dir_); }

  loop::LoopConfig config_;
  fs::path dir_;
  std::optional<loop::RoleContext> run_;
};

TEST_F(GenerationFolderTest, RecordsInTheFolderAreReadByGeneration) {
  const loop::RunFolder& folder = run_->folder;
  EXPECT_FALSE(loop::readTrainRecord(folder, 1));
  loop::writeGenerationRecord(folder, trainRecord(1));
  loop::writeGenerationRecord(folder, gateRecord(1));
  ASSERT_TRUE(loop::readTrainRecord(folder, 1));
  EXPECT_EQ(loop::readTrainRecord(folder, 1)->train_step, 40);
  EXPECT_EQ(loop::readGateRecord(folder, 1)->match->games->wins, 9);
  const std::vector<loop::GenerationRecords> generations = loop::readGenerations(folder);
  ASSERT_EQ(generations.size(), 2u);  // 0 (its data set) and 1
  EXPECT_TRUE(generations[1].train && generations[1].gate && !generations[1].ladder);
  // The later record's cpu_hours wins in the summary.
  EXPECT_EQ(loop::runHistory(generations)[1]["cpu_hours"], 0.5);

  std::ofstream(folder.path("gates/gen-002.json")) << "{\"generation\": 2}";
  EXPECT_EQ(refusal([&] { loop::readGenerations(folder); }),
            folder.path("gates/gen-002.json") + ": no \"promoted\"");
}

// `loop status` shows each generation's value loss beside the side baseline, and warns when the
// newest network's value head does no better than it; a record of an earlier morne, without the
// figure, reads (as not measured) and draws no warning.
TEST_F(GenerationFolderTest, StatusWarnsOfAValueHeadThatLearnedOnlyWhoUsuallyWinsOrAConstant) {
  const loop::RunFolder& folder = run_->folder;
  loop::TrainRecord learned = trainRecord(1);
  learned.losses->value_side_baseline = 0.8;  // 0.5 against 0.8: positions told apart
  loop::writeGenerationRecord(folder, learned);
  std::string status = loop::loopStatus(dir_.string());
  EXPECT_NE(status.find("0.500 (1.000, 0.800)"), std::string::npos) << status;
  EXPECT_EQ(status.find("value head:"), std::string::npos) << status;

  loop::TrainRecord constant = trainRecord(2);
  constant.losses->value_side_baseline = 0.52;  // 0.5 against 0.52
  loop::writeGenerationRecord(folder, constant);
  status = loop::loopStatus(dir_.string());
  EXPECT_NE(status.find("value head: generation 2's value loss 0.500 is no better than 0.520"),
            std::string::npos)
      << status;

  EXPECT_EQ(status.find("predicts nearly a constant"), std::string::npos) << status;

  loop::TrainRecord flat = trainRecord(3);
  flat.losses->value_variance = 0.004;  // against 0.05: a constant, as crossing's head was
  flat.losses->value_target_variance = 0.05;
  loop::writeGenerationRecord(folder, flat);
  status = loop::loopStatus(dir_.string());
  EXPECT_NE(status.find("generation 3's values vary by 0.0040 (variance) where the targets vary "
                        "by 0.0500: it predicts nearly a constant"),
            std::string::npos)
      << status;
  flat.losses->value_variance = 0.03;
  loop::writeGenerationRecord(folder, flat);
  EXPECT_EQ(loop::loopStatus(dir_.string()).find("predicts nearly a constant"), std::string::npos);
  fs::remove(folder.path("train/gen-003.json"));

  nlohmann::json old = nlohmann::json::parse(std::ifstream(folder.path("train/gen-002.json")));
  old.erase("value_side_baseline");
  std::ofstream(folder.path("train/gen-002.json")) << old.dump();
  ASSERT_TRUE(loop::readTrainRecord(folder, 2));
  EXPECT_EQ(loop::readTrainRecord(folder, 2)->losses->value_side_baseline, 0);
  status = loop::loopStatus(dir_.string());
  EXPECT_EQ(status.find("value head:"), std::string::npos) << status;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The quoted names in `text` that `pattern`'s first group captures.
std::set<std::string> captured(const std::string& text, const std::string& pattern) {
  std::set<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it)
    out.insert((*it)[1]);
  return out;
}

TEST_F(GenerationFolderTest, TheSummaryHoldsTheKeysTheModelCardReads) {
  const loop::RunFolder& folder = run_->folder;
  loop::writeGenerationRecord(folder, trainRecord(1));
  loop::writeGenerationRecord(folder, gateRecord(1));
  loop::writeGenerationRecord(folder, ladderRecord(1));
  fs::create_directories(folder.dataSet(1));
  loop::writeRunSummary(folder, config_);

  // run_figures() of the script: the keys it reads of a generation ("g" and "made[0]") in
  // summary.json and of loop.json ("for k in (...)").
  const std::string script = readText(fs::path(MORNE_SOURCE_DIR) / "scripts/model-card.py");
  const size_t from = script.find("def run_figures(");
  ASSERT_NE(from, std::string::npos);
  const std::string body = script.substr(from, script.find("\ndef ", from + 1) - from);
  const std::set<std::string> generation_keys =
      captured(body, R"((?:made\[0\]|\bg)(?:\[|\.get\()\"(\w+)\")");
  ASSERT_TRUE(generation_keys.count("cpu_hours"));
  ASSERT_TRUE(generation_keys.count("selfplay_games"));
  std::set<std::string> settings_keys;
  for (const std::string& list : captured(body, R"(for k in \(([^)]*)\))"))
    for (const std::string& k : captured(list, R"(\"(\w+)\")")) settings_keys.insert(k);
  ASSERT_TRUE(settings_keys.count("train"));

  const json summary = json::parse(readText(folder.path("summary.json")));
  ASSERT_EQ(summary["generations"].size(), 2u);
  for (const json& g : summary["generations"]) {
    if (g["generation"] == 0) continue;  // before the first network
    for (const std::string& key : generation_keys)
      EXPECT_TRUE(g.contains(key)) << "summary.json's generations lack \"" << key << "\"";
  }
  const json settings = json::parse(readText(folder.path("loop.json")));
  for (const std::string& key : settings_keys)
    EXPECT_TRUE(settings.contains(key)) << "loop.json lacks \"" << key << "\"";
}

}  // namespace
}  // namespace morne
