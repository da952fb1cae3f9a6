// HDF5 shards: what is written reads back identically, shards rotate on whole games, a reader
// rejects what is not a morne shard, and an interrupted writer leaves only complete shards.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "env/error.h"
#include "env/rng.h"
#include "tests/training/temp_dir.h"
#include "training/game_journal.h"
#include "training/shard_reader.h"
#include "training/shard_writer.h"

namespace morne::training {
namespace {

namespace fs = std::filesystem;

const RowShape kShardShape{3, 2, 4, 5, 11};

// A game of `rows` rows filled with seeded random values.
GameData randomGame(uint64_t id, int rows, env::Rng& rng) {
  GameData g;
  g.id = id;
  g.seed = rng.next();
  g.winner = static_cast<int8_t>(static_cast<int>(rng.below(3)) - 1);
  g.vp_blue = static_cast<int16_t>(rng.below(50));
  g.vp_orange = static_cast<int16_t>(rng.below(50));
  g.level = static_cast<int8_t>(rng.below(4));
  g.plies = rows * 3;
  g.decisions = rows + 2;
  g.rows = rows;
  for (int r = 0; r < rows; ++r) {
    for (int i = 0; i < kShardShape.planeSize(); ++i)
      g.planes.push_back(static_cast<float>(rng.uniform()));
    for (int i = 0; i < kShardShape.globals; ++i)
      g.globals.push_back(static_cast<float>(rng.uniform() - 0.5));
    for (int i = 0; i < kShardShape.policy; ++i) {
      g.policy.push_back(static_cast<float>(rng.uniform()));
      g.legal.push_back(static_cast<uint8_t>(rng.below(2)));
    }
    g.value.push_back(static_cast<float>(static_cast<int>(rng.below(3)) - 1));
    g.search_value.push_back(static_cast<float>(2 * rng.uniform() - 1));
    g.move.push_back(r);
    g.phase.push_back(static_cast<uint8_t>(rng.below(5)));
    g.side.push_back(static_cast<uint8_t>(rng.below(2)));
  }
  return g;
}

ShardInfo testInfo() {
  ShardInfo info;
  info.scenario = "duel";
  info.blue_agent = "mcts:sims=10";
  info.orange_agent = "rule";
  info.config = R"({"games":3})";
  info.engine = "morne test";
  info.encoder_version = 7;
  info.shape = kShardShape;
  return info;
}

class ShardTest : public test::TempDirTest {
 protected:
  std::vector<std::string> files(const std::string& extension) const {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      const std::string name = entry.path().filename().string();
      if (name.size() >= extension.size() &&
          name.compare(name.size() - extension.size(), extension.size(), extension) == 0) {
        out.push_back(entry.path().string());
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

void expectSameGame(const GameData& a, const GameData& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.winner, b.winner);
  EXPECT_EQ(a.vp_blue, b.vp_blue);
  EXPECT_EQ(a.vp_orange, b.vp_orange);
  EXPECT_EQ(a.level, b.level);
  EXPECT_EQ(a.plies, b.plies);
  EXPECT_EQ(a.decisions, b.decisions);
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.planes, b.planes);
  EXPECT_EQ(a.globals, b.globals);
  EXPECT_EQ(a.policy, b.policy);
  EXPECT_EQ(a.legal, b.legal);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.search_value, b.search_value);
  EXPECT_EQ(a.move, b.move);
  EXPECT_EQ(a.phase, b.phase);
  EXPECT_EQ(a.side, b.side);
}

TEST_F(ShardTest, WhatIsWrittenReadsBackIdentically) {
  env::Rng rng(101);
  std::vector<GameData> games;
  for (int i = 0; i < 5; ++i) games.push_back(randomGame(static_cast<uint64_t>(i), 2 + i, rng));
  {
    ShardWriter writer(dir_.string(), "run", testInfo(), 6);
    for (const GameData& g : games) writer.write(g);
    writer.close();
    // 2+3=5 rows stay open, +4 reaches 6: shard 0 = games 0..2; games 3 (5 rows) and 4 (6 rows)
    // make shard 1 (11 rows).
    ASSERT_EQ(writer.shards().size(), 2u);
    EXPECT_EQ(writer.rowsWritten(), 2 + 3 + 4 + 5 + 6);
  }
  const std::vector<std::string> shards = files(".h5");
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_TRUE(files(".tmp").empty());
  size_t next = 0;
  for (const std::string& path : shards) {
    const ShardContents c = readShard(path, true);
    EXPECT_EQ(c.format, kShardFormat);
    EXPECT_EQ(c.format_version, kShardFormatVersion);
    EXPECT_EQ(c.encoder_version, 7);
    EXPECT_EQ(c.scenario, "duel");
    EXPECT_EQ(c.blue_agent, "mcts:sims=10");
    EXPECT_EQ(c.orange_agent, "rule");
    EXPECT_EQ(c.config, R"({"games":3})");
    EXPECT_EQ(c.engine, "morne test");
    EXPECT_EQ(c.shape.planes, kShardShape.planes);
    EXPECT_EQ(c.shape.policy, kShardShape.policy);
    int64_t rows = 0;
    for (const GameData& g : c.games) {
      ASSERT_LT(next, games.size());
      expectSameGame(g, games[next++]);
      rows += g.rows;
    }
    EXPECT_EQ(c.rows, rows);
  }
  EXPECT_EQ(next, games.size());
}

// A game without search values (an agent's that keeps none) is written with its values in
// their place, and a game whose rows disagree with a dataset is refused before any of it is
// written.
TEST_F(ShardTest, SearchValuesStandInAndRowsMustAgree) {
  env::Rng rng(5);
  GameData plain = randomGame(0, 4, rng);
  plain.search_value.clear();
  GameData broken = randomGame(1, 3, rng);
  broken.search_value.pop_back();
  ShardWriter writer(dir_.string(), "sv", testInfo(), 100);
  writer.write(plain);
  EXPECT_THROW(writer.write(broken), InternalError);
  writer.close();
  const ShardContents c = readShard(writer.shards().at(0), true);
  ASSERT_EQ(c.games.size(), 1u);
  EXPECT_EQ(c.games[0].search_value, plain.value);
  nn::TrainingBatch batch;
  readShardRows(writer.shards().at(0), 1, 2, kShardShape, batch);
  EXPECT_EQ(batch.search_value, (std::vector<float>{plain.value[1], plain.value[2]}));
}

TEST_F(ShardTest, SummaryReadSkipsThePositions) {
  env::Rng rng(5);
  {
    ShardWriter writer(dir_.string(), "run", testInfo(), 100);
    writer.write(randomGame(0, 4, rng));
  }  // the destructor completes the shard
  const std::vector<std::string> shards = files(".h5");
  ASSERT_EQ(shards.size(), 1u);
  const ShardContents c = readShard(shards[0], false);
  EXPECT_EQ(c.rows, 4);
  ASSERT_EQ(c.games.size(), 1u);
  EXPECT_EQ(c.games[0].rows, 4);
  EXPECT_TRUE(c.games[0].planes.empty());
}

TEST_F(ShardTest, ReaderRejectsWhatIsNotAShard) {
  fs::create_directories(dir_);
  EXPECT_THROW(readShard((dir_ / "missing.h5").string(), false), IoError);
  const fs::path text = dir_ / "text.h5";
  std::ofstream(text) << "not hdf5\n";
  try {
    readShard(text.string(), false);
    FAIL() << "a text file was read as a shard";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("text.h5: damaged or not a morne shard: not an HDF5 file"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(ShardTest, WriterRefusesAFolderItCannotCreate) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "file") << "x";
  EXPECT_THROW(ShardWriter((dir_ / "file" / "sub").string(), "run", testInfo(), 10), IoError);
}

// A process killed while writing (simulated by _exit in a child, with no destructor run) leaves
// its completed shards readable and its open shard only under the .tmp name, which readers of
// "*.h5" never see.
TEST_F(ShardTest, AnInterruptedWriterLeavesOnlyCompleteShards) {
  env::Rng rng(77);
  std::vector<GameData> games;
  for (int i = 0; i < 3; ++i) games.push_back(randomGame(static_cast<uint64_t>(i), 4, rng));
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ShardWriter* writer = new ShardWriter(dir_.string(), "run", testInfo(), 4);
    writer->write(games[0]);  // completes shard 0
    writer->write(games[1]);  // completes shard 1
    writer->write(games[2]);  // completes shard 2
    ShardWriter* second = new ShardWriter(dir_.string(), "late", testInfo(), 100);
    second->write(games[0]);  // left open
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  const std::vector<std::string> shards = files(".h5");
  ASSERT_EQ(shards.size(), 3u);
  for (size_t i = 0; i < shards.size(); ++i) {
    const ShardContents c = readShard(shards[i], true);
    ASSERT_EQ(c.games.size(), 1u);
    expectSameGame(c.games[0], games[i]);
  }
  EXPECT_EQ(files(".h5.tmp").size(), 0u);
  ASSERT_EQ(files(".h5.journal").size(), 1u) << "the open shard's finished game is journalled";

  // The next run in the folder turns the journal into its shard: nothing finished is lost.
  const std::vector<RecoveredShard> recovered = recoverShards(dir_.string());
  ASSERT_EQ(recovered.size(), 1u);
  EXPECT_EQ(recovered[0].games, 1);
  EXPECT_EQ(recovered[0].dropped_bytes, 0u);
  EXPECT_EQ(files(".h5.journal").size(), 0u);
  const ShardContents late = readShard(recovered[0].shard, true);
  ASSERT_EQ(late.games.size(), 1u);
  expectSameGame(late.games[0], games[0]);
  EXPECT_EQ(files(".h5").size(), 4u);
}

// A journal gets its own name only once its header is whole (it is made under NAME.new), so
// one under its own name without a whole header was damaged after the fact (a power cut leaves
// zeros or a short file): it is kept aside as .damaged and reported, never deleted, and
// recovery goes on with the other journals.
TEST_F(ShardTest, JournalsWithoutAWholeHeaderAreKeptAsideNotDeleted) {
  fs::create_directories(dir_);
  { GameJournal whole((dir_ / "whole.h5.journal").string(), testInfo()); }
  std::ifstream in(dir_ / "whole.h5.journal", std::ios::binary);
  const std::string header((std::istreambuf_iterator<char>(in)), {});
  std::ofstream(dir_ / "empty-0000.h5.journal");
  std::ofstream(dir_ / "cut-0000.h5.journal", std::ios::binary)
      << header.substr(0, header.size() / 2);
  std::ofstream(dir_ / "foreign-0000.h5.journal") << "something else entirely, not a journal";
  std::ofstream(dir_ / "zeros-0000.h5.journal", std::ios::binary) << std::string(4096, '\0');
  fs::rename(dir_ / "whole.h5.journal", dir_ / "new-0000.h5.journal.new");  // killed as made
  const std::vector<RecoveredShard> recovered = recoverShards(dir_.string());
  ASSERT_EQ(recovered.size(), 4u);
  for (const RecoveredShard& r : recovered) {
    EXPECT_EQ(r.games, 0);
    EXPECT_TRUE(r.shard.empty());
    EXPECT_EQ(r.quarantined, r.journal + ".damaged");
    EXPECT_FALSE(r.problem.empty());
    EXPECT_NE(recoveryText(r).find("kept as " + r.quarantined), std::string::npos);
  }
  EXPECT_EQ(files(".h5.journal").size(), 0u);
  EXPECT_EQ(files(".h5.journal.damaged").size(), 4u);
  EXPECT_EQ(files(".h5.journal.new").size(), 0u) << "a journal killed before its header";
  EXPECT_TRUE(recoverShards(dir_.string()).empty()) << "what is kept aside is not taken again";
}

// The seeds of issue 25: a journal of several games with its header randomised, bytes flipped
// in its middle, or cut short. Every game that can be read reaches a shard; a journal that
// could not be read whole, even one whose last record is only cut short, is kept as .damaged
// with what was lost.
TEST_F(ShardTest, DamagedJournalsGiveTheirIntactGamesAndAreKeptAside) {
  env::Rng rng(5);
  std::vector<GameData> games;
  for (int i = 0; i < 6; ++i) games.push_back(randomGame(static_cast<uint64_t>(i), 5, rng));
  fs::create_directories(dir_);
  const fs::path model = dir_ / "model.journal";
  {
    GameJournal journal(model.string(), testInfo());
    for (const GameData& g : games) journal.append(g);
  }
  std::ifstream in(model, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  fs::remove(model);
  std::string header_damaged = bytes;
  for (size_t i = 8; i < 64; ++i) header_damaged[i] = static_cast<char>(rng.below(256));
  std::string middle_damaged = bytes;
  for (int i = 0; i < 20; ++i) middle_damaged[bytes.size() / 2 + i * 7] ^= 0x5A;
  const std::string cut = bytes.substr(0, bytes.size() * 2 / 3);
  std::ofstream(dir_ / "a-0000.h5.journal", std::ios::binary) << header_damaged;
  std::ofstream(dir_ / "b-0000.h5.journal", std::ios::binary) << middle_damaged;
  std::ofstream(dir_ / "c-0000.h5.journal", std::ios::binary) << cut;

  const std::vector<RecoveredShard> r = recoverShards(dir_.string());
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].games, 0);
  EXPECT_EQ(r[0].quarantined, r[0].journal + ".damaged") << "a damaged header: kept aside";
  EXPECT_GT(r[1].games, 0);
  EXPECT_LT(r[1].games, 6);
  EXPECT_EQ(r[1].quarantined, r[1].journal + ".damaged") << "damage in the middle: kept aside";
  EXPECT_NE(r[1].problem.find("damaged record at byte"), std::string::npos) << r[1].problem;
  EXPECT_GT(r[2].games, 0);
  EXPECT_LT(r[2].games, 6);
  EXPECT_EQ(r[2].quarantined, r[2].journal + ".damaged") << "cut short: kept aside";
  EXPECT_GT(r[2].dropped_bytes, 0u);
  EXPECT_NE(recoveryText(r[2]).find("cut short"), std::string::npos) << recoveryText(r[2]);
  for (int k = 1; k <= 2; ++k) {
    const ShardContents c = readShard(r[k].shard, true);
    ASSERT_EQ(static_cast<int64_t>(c.games.size()), r[k].games);
    for (size_t g = 0; g < c.games.size(); ++g) expectSameGame(c.games[g], games[g]);
  }
  EXPECT_EQ(files(".h5.journal.damaged").size(), 3u);
  EXPECT_EQ(files(".h5.journal").size(), 0u);

  // A new writer of the same name numbers its shards after the journals kept aside.
  ShardWriter writer(dir_.string(), "a", testInfo(), 1);
  writer.write(games[0]);
  ASSERT_EQ(writer.shards().size(), 1u);
  EXPECT_EQ(fs::path(writer.shards()[0]).filename(), "a-0001.h5");
}

}  // namespace
}  // namespace morne::training
