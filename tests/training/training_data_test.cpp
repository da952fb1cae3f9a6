// What the learner reads (training/training_data.h, training/train_run.h): shards indexed in
// the order written with validation games set apart, a stream that samples the replay window
// uniformly, never validation rows, and resumes exactly from a saved position; shards of
// another kind, and data that do not fit the network, refused.

#include "training/training_data.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "env/error.h"
#include "env/rng.h"
#include "tests/training/temp_dir.h"
#include "training/shard_writer.h"
#include "training/train_options.h"
#include "training/train_run.h"

namespace morne::training {
namespace {

const RowShape kDataShape{1, 1, 2, 1, 3};

// Game `id` of `rows` rows of kDataShape, whose rows carry first_global, first_global + 1, ... in
// globals[0].
GameData numberedGame(int id, int rows, int64_t first_global) {
  GameData game;
  game.id = static_cast<uint64_t>(id);
  game.seed = env::deriveSeed(77, id);
  game.rows = rows;
  for (int r = 0; r < rows; ++r) {
    game.planes.insert(game.planes.end(), 2, 0.5f);
    game.globals.push_back(static_cast<float>(first_global + r));
    game.policy.insert(game.policy.end(), {1.0f, 0.0f, 0.0f});
    game.legal.insert(game.legal.end(), {1, 1, 0});
    game.value.push_back(1.0f);
    game.move.push_back(r);
    game.phase.push_back(2);
    game.side.push_back(0);
  }
  return game;
}

// Games whose rows carry their number in the whole sequence in globals[0] (exact in a float).
class TrainingDataTest : public test::TempDirTest {
 protected:
  // Writes `games` games of `rows` rows into DIR/NAME, shards of at least `rows_per_shard`.
  std::string writeShards(const std::string& name, int games, int rows, int rows_per_shard,
                          int encoder_version = 1) {
    ShardInfo info;
    info.scenario = "duel";
    info.encoder_version = encoder_version;
    info.shape = kDataShape;
    const std::string dir = (dir_ / name).string();
    ShardWriter writer(dir, "t", info, rows_per_shard);
    for (int g = 0; g < games; ++g) {
      const GameData game = numberedGame(g, rows, next_row_);
      next_row_ += rows;
      if (isValidationGame(game.seed, kPermille)) {
        for (int r = 0; r < rows; ++r) validation_ids_.insert(next_row_ - rows + r);
      }
      writer.write(game);
    }
    writer.close();
    return dir;
  }

  static std::vector<int64_t> ids(const nn::TrainingBatch& b) {
    std::vector<int64_t> out;
    for (float v : b.globals) out.push_back(static_cast<int64_t>(v));
    return out;
  }

  static constexpr int kPermille = 200;
  int64_t next_row_ = 0;
  std::set<int64_t> validation_ids_;
};

TEST_F(TrainingDataTest, IndexListsShardsInWriteOrderWithValidationGamesApart) {
  const std::string dir = writeShards("a", 40, 10, 50);
  const ShardIndex index = indexShards({dir}, kPermille);
  ASSERT_EQ(index.shards.size(), 8u);
  EXPECT_EQ(index.rows, 400);
  EXPECT_EQ(index.games, 40);
  EXPECT_EQ(index.validation_rows, static_cast<int64_t>(validation_ids_.size()));
  EXPECT_GT(index.validation_rows, 0);
  for (size_t s = 1; s < index.shards.size(); ++s)
    EXPECT_LT(index.shards[s - 1].path, index.shards[s].path);
  ASSERT_EQ(index.sequence.size(), 40u);
  for (size_t g = 0; g < index.sequence.size(); ++g) {
    EXPECT_EQ(index.sequence[g].first_row, static_cast<int64_t>(g) * 10);
    EXPECT_EQ(index.sequence[g].shard, static_cast<int32_t>(g / 5));
  }
  EXPECT_EQ(indexShards({dir}, kPermille, 3).shards.size(), 3u);  // a resumed run's shards
}

// Self-play writes games in the order they end, which depends on its threads: the same games
// in another order, and so in other shards, give the same sequence and the same stream.
TEST_F(TrainingDataTest, TheOrderInWhichGamesEndedDoesNotChangeTheStream) {
  auto write = [&](const std::string& name, const std::vector<int>& order) {
    ShardInfo info;
    info.scenario = "duel";
    info.encoder_version = 1;
    info.shape = kDataShape;
    const std::string dir = (dir_ / name).string();
    ShardWriter writer(dir, "w", info, 25);
    for (int g : order) writer.write(numberedGame(g, 3 + g % 7, 100 * g));
    writer.close();
    return dir;
  };
  std::vector<int> in_order(30), ended(30);
  for (int g = 0; g < 30; ++g) in_order[static_cast<size_t>(g)] = g;
  ended = in_order;
  env::Rng rng(3);
  for (size_t i = ended.size(); i > 1; --i) std::swap(ended[i - 1], ended[rng.next() % i]);
  const ShardIndex a = indexShards({write("a", in_order)}, kPermille);
  const ShardIndex b = indexShards({write("b", ended)}, kPermille);
  ASSERT_EQ(a.rows, b.rows);
  DataConfig config;
  config.window = {100, 0.75, 0.4};
  config.validation_permille = kPermille;
  config.shuffle_rows = 40;
  config.block_rows = 8;
  TrainingStream sa(a, config, 9, {}), sb(b, config, 9, {});
  for (int i = 0; i < 20; ++i) EXPECT_EQ(ids(sa.next(16)), ids(sb.next(16))) << "batch " << i;
  EXPECT_EQ(ids(validationRows(a, config.window, 50)), ids(validationRows(b, config.window, 50)));
}

// --q-ratio: the value target is (1 - q) x the result + q x the search value, by hand.
TEST(ValueTargets, SearchValuesMixIntoTheResultsByTheRatio) {
  nn::TrainingBatch b;
  b.size = 3;
  b.value = {1, -1, 0};
  b.search_value = {0.5f, -0.2f, 0.4f};
  nn::TrainingBatch unmixed = b;
  mixValueTargets(unmixed, 0);
  EXPECT_EQ(unmixed.value, b.value);
  mixValueTargets(b, 0.25);
  EXPECT_NEAR(b.value[0], 0.75 * 1 + 0.25 * 0.5, 1e-6);    // 0.875
  EXPECT_NEAR(b.value[1], 0.75 * -1 + 0.25 * -0.2, 1e-6);  // -0.8
  EXPECT_NEAR(b.value[2], 0.25 * 0.4, 1e-6);               // 0.1
  nn::TrainingBatch none;  // rows without search values are left alone
  none.size = 1;
  none.value = {1};
  mixValueTargets(none, 0.5);
  EXPECT_EQ(none.value, std::vector<float>{1});
}

// --teacher-ratio: the value target is (1 - t) x the target so far + t x the teacher's value,
// by hand; rows the teacher did not search (NaN) keep theirs.
TEST(ValueTargets, TeacherValuesMixIntoTheTargetsByTheRatio) {
  nn::TrainingBatch b;
  b.size = 3;
  b.value = {1, -1, 1};
  b.teacher_value = {-0.4f, std::nanf(""), 0.6f};
  nn::TrainingBatch unmixed = b;
  mixTeacherValues(unmixed, 0);
  EXPECT_EQ(unmixed.value, b.value);
  mixTeacherValues(b, 0.75);
  EXPECT_NEAR(b.value[0], 0.25 * 1 + 0.75 * -0.4, 1e-6);  // -0.05: the teacher says losing
  EXPECT_EQ(b.value[1], -1);                              // no teacher value
  EXPECT_NEAR(b.value[2], 0.25 * 1 + 0.75 * 0.6, 1e-6);   // 0.7
  nn::TrainingBatch none;  // a batch without teacher values is left alone
  none.size = 1;
  none.value = {1};
  mixTeacherValues(none, 0.5);
  EXPECT_EQ(none.value, std::vector<float>{1});
}

// --level-ratio: the value target is (1 - l) x the result + l x the victory level (the margin
// over 4 VP, clamped), by hand; rows whose margin is unknown keep their result.
TEST(ValueTargets, VictoryLevelsMixIntoTheResultsByTheRatio) {
  nn::TrainingBatch b;
  b.size = 4;
  b.value = {1, -1, 1, -1};
  b.margin = {1, -6, std::nanf(""), 2};
  nn::TrainingBatch unmixed = b;
  mixVictoryLevels(unmixed, 0);
  EXPECT_EQ(unmixed.value, b.value);
  mixVictoryLevels(b, 0.5);
  EXPECT_NEAR(b.value[0], 0.5 * 1 + 0.5 * 0.25, 1e-6);  // a minor victory: 0.625
  EXPECT_NEAR(b.value[1], -1, 1e-6);                    // beyond a total defeat: -1
  EXPECT_EQ(b.value[2], 1);                             // margin unknown
  EXPECT_NEAR(b.value[3], 0.5 * -1 + 0.5 * 0.5, 1e-6);  // lost, yet 2 VP ahead: -0.25
  nn::TrainingBatch none;                               // rows without margins are left alone
  none.size = 1;
  none.value = {1};
  mixVictoryLevels(none, 0.5);
  EXPECT_EQ(none.value, std::vector<float>{1});
}

// --shares (issue 29): each step's scenario is drawn in proportion to the weights, the same
// for the same seed and step; the text is checked.
TEST(ScenarioShares, StepsAreDrawnInProportionToTheWeights) {
  const std::vector<double> weights{1, 3};
  int second = 0;
  for (int64_t step = 0; step < 4000; ++step) {
    const size_t k = scenarioOfStep(weights, 7, step);
    ASSERT_LT(k, 2u);
    EXPECT_EQ(k, scenarioOfStep(weights, 7, step));
    second += k == 1;
  }
  EXPECT_NEAR(second / 4000.0, 0.75, 0.03);
  EXPECT_EQ(scenarioOfStep(std::vector<double>{2}, 7, 5), 0u);
  const auto shares = parseScenarioShares("duel=1,pyramids=2.5");
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_EQ(shares[1].first, "pyramids");
  EXPECT_EQ(shares[1].second, 2.5);
  for (const char* bad : {"", "duel", "=1", "duel=0", "duel=-1", "duel=1,duel=2", "duel=1x"})
    EXPECT_THROW(parseScenarioShares(bad), ConfigError) << bad;
}

TEST_F(TrainingDataTest, StreamSamplesTheWindowUniformlyAndNeverValidationRows) {
  const std::string dir = writeShards("a", 45, 9, 40);  // 405 rows
  const ShardIndex index = indexShards({dir}, kPermille);
  DataConfig config;
  config.window = {150, 0.75, 0.4};
  config.validation_permille = kPermille;
  config.shuffle_rows = 50;
  config.block_rows = 8;
  const int64_t window = windowRows(405, config.window);
  ASSERT_LT(window, 405);
  TrainingStream stream(index, config, 5, {});
  EXPECT_EQ(stream.windowRows(), window);
  std::map<int64_t, int> count;
  const int draws = 40000;
  for (int i = 0; i < draws / 100; ++i) {
    for (int64_t id : ids(stream.next(100))) ++count[id];
  }
  int64_t training = 0;
  for (int64_t id = 405 - window; id < 405; ++id) training += validation_ids_.count(id) ? 0 : 1;
  EXPECT_EQ(stream.windowTrainingRows(), training);
  EXPECT_EQ(static_cast<int64_t>(count.size()), training);  // every training row of the window
  const double mean = static_cast<double>(draws) / static_cast<double>(training);
  for (const auto& [id, n] : count) {
    EXPECT_GE(id, 405 - window) << "a row before the window";
    EXPECT_FALSE(validation_ids_.count(id)) << "validation row " << id << " trained on";
    EXPECT_NEAR(n, mean, 0.25 * mean) << "row " << id;
  }
}

TEST_F(TrainingDataTest, ResumedStreamGivesTheRowsOfAnUninterruptedOne) {
  const std::string dir = writeShards("a", 30, 7, 32);
  const ShardIndex index = indexShards({dir}, kPermille);
  DataConfig config;
  config.validation_permille = kPermille;
  config.shuffle_rows = 45;
  config.block_rows = 8;
  std::vector<int64_t> whole, resumed;
  {
    TrainingStream stream(index, config, 9, {});
    for (int i = 0; i < 20; ++i) {
      for (int64_t id : ids(stream.next(13))) whole.push_back(id);
    }
  }
  DataPosition saved;
  {
    TrainingStream stream(index, config, 9, {});
    for (int i = 0; i < 7; ++i) {
      for (int64_t id : ids(stream.next(13))) resumed.push_back(id);
    }
    saved = stream.position();
  }
  EXPECT_GT(saved.fill, 0);
  TrainingStream stream(index, config, 9, saved);
  for (int i = 7; i < 20; ++i) {
    for (int64_t id : ids(stream.next(13))) resumed.push_back(id);
  }
  EXPECT_EQ(resumed, whole);
  // Another seed, another order.
  TrainingStream other(index, config, 10, {});
  EXPECT_NE(ids(other.next(13 * 4)), std::vector<int64_t>(whole.begin(), whole.begin() + 52));
}

TEST_F(TrainingDataTest, ValidationRowsAreTheMostRecentValidationRowsInOrder) {
  const std::string dir = writeShards("a", 40, 10, 50);
  const ShardIndex index = indexShards({dir}, kPermille);
  const std::vector<int64_t> all = ids(validationRows(index, {}, 1000));
  EXPECT_EQ(all, std::vector<int64_t>(validation_ids_.begin(), validation_ids_.end()));
  const std::vector<int64_t> last = ids(validationRows(index, {}, 15));
  EXPECT_EQ(last, std::vector<int64_t>(all.end() - 15, all.end()));
}

TEST_F(TrainingDataTest, ASampleIsOfTheWholeWindowAndApartFromTheStream) {
  const std::string dir = writeShards("a", 45, 9, 40);  // 405 rows
  DataConfig config;
  config.window = {150, 0.75, 0.4};
  config.validation_permille = kPermille;
  config.block_rows = 8;
  const int64_t window_start = 405 - windowRows(405, config.window);
  TrainingStream stream(indexShards({dir}, kPermille), config, 5, {});
  const std::vector<int64_t> first = ids(stream.next(20));
  const std::vector<int64_t> sample = ids(stream.sample(99, 60));
  EXPECT_GE(sample.size(), 60u);
  int64_t low = 405;
  for (int64_t id : sample) {
    EXPECT_GE(id, window_start);
    EXPECT_FALSE(validation_ids_.count(id));
    low = std::min(low, id);
  }
  EXPECT_LT(low, window_start + 80) << "the sample misses the older part of the window";
  EXPECT_EQ(ids(stream.sample(99, 60)), sample);  // the same seed, the same rows
  TrainingStream fresh(indexShards({dir}, kPermille), config, 5, {});
  EXPECT_EQ(ids(fresh.next(20)), first);  // sampling took nothing from the stream
  EXPECT_EQ(stream.position().offset, 20);
}

TEST_F(TrainingDataTest, ShardsOfAnotherKindAndEmptyFoldersAreRefused) {
  const std::string one = writeShards("one", 4, 5, 100, 1);
  const std::string two = writeShards("two", 4, 5, 100, 2);
  try {
    indexShards({one, two}, 50);
    FAIL() << "shards of two encoder versions accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("encoder version 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("encoder version 1"), std::string::npos) << e.what();
  }
  std::filesystem::create_directories(dir_ / "empty");
  EXPECT_THROW(indexShards({(dir_ / "empty").string()}, 50), ConfigError);
  EXPECT_THROW(indexShards({(dir_ / "absent").string()}, 50), ConfigError);
}

TEST(TrainSettings, ReuseCapsTheSteps) {
  TrainSettings s;
  s.batch = 100;
  s.max_reuse = 4;
  s.steps = 0;
  EXPECT_EQ(targetSteps(s, 1000), 40);  // 4 x 1000 rows / 100 a step
  s.steps = 10;
  EXPECT_EQ(targetSteps(s, 1000), 10);
  s.steps = 100;
  EXPECT_EQ(targetSteps(s, 1000), 40);
  s.max_reuse = 0;
  EXPECT_EQ(targetSteps(s, 1000), 100);
  // A record naming an optimizer that is not one of the learner's choices is refused.
  nlohmann::json settings = training::trainSettingsJson(s);
  settings["optimizer"] = "adam";
  EXPECT_THROW(training::readTrainSettingsJson("train.json", settings, s), ConfigError);
}

// A learner that learns nothing: TrainingRun's checks come before any training.
class IdleLearner : public nn::Learner {
 public:
  explicit IdleLearner(nn::NetworkConfig c) : config_(std::move(c)) {}
  nn::LossReport step(const nn::TrainingBatch&) override { return {}; }
  nn::LossReport measure(const nn::TrainingBatch&) override { return {}; }
  int64_t steps() const override { return 0; }
  double learningRate() const override { return 0; }
  void setCalibrationRows(const std::vector<nn::TrainingBatch>&) override {}
  void exportNetwork(const std::string&, const std::string&) override {}
  void saveCheckpoint(const std::string&, const std::string&) const override {}
  std::string loadCheckpoint(const std::string&) override { return ""; }
  const nn::NetworkConfig& networkConfig() const override { return config_; }
  void joinGroup(nn::ProcessGroup&) override {}

 private:
  nn::NetworkConfig config_;
};

TEST_F(TrainingDataTest, DataThatDoNotFitTheNetworkAreRefused) {
  TrainSettings s;
  s.data_dirs = {writeShards("a", 4, 5, 100, 1)};
  nn::NetworkConfig c;
  c.input = {kDataShape.planes, kDataShape.height, kDataShape.width, kDataShape.globals};
  c.policy_planes = 1;  // policy 1 x 1 x 2 + 2 = 4 entries; the data have 3
  c.encoder_version = 1;
  c.scenario = "duel";
  IdleLearner learner(c);
  try {
    TrainingRun run(learner, s, dir_.string(), TrainStart::kFresh, "");
    FAIL() << "data of another policy size accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("do not fit the network"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace morne::training
