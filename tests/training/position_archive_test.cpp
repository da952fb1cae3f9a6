// The position archive of self-play (training/position_archive.h): one position a game, drawn
// from its decisions, that set_state's validation accepts; games started from archived
// positions, the same for the same seed; damaged or foreign archives reported and left alone.

#include "training/position_archive.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "tests/training/temp_dir.h"
#include "training/selfplay.h"
#include "training/shard_reader.h"

namespace morne::training {
namespace {

namespace fs = std::filesystem;

class PositionArchiveTest : public test::TempDirTest {
 protected:
  SelfPlayConfig config(const std::string& out, const std::string& prefix) const {
    SelfPlayConfig c;
    c.scenario = scenario_;
    c.agent = "mcts:sims=8";
    c.games = 6;
    c.jobs = 2;
    c.seed = 5;
    c.out_dir = (dir_ / out).string();
    c.prefix = prefix;
    c.archive = true;
    return c;
  }

  std::shared_ptr<const env::Scenario> scenario_ = env::loadScenario("duel");
};

TEST_F(PositionArchiveTest, EveryGameArchivesADecisionPositionThatSetStateAccepts) {
  const SelfPlayResult r = runSelfPlay(config("a", "p"), nullptr, nullptr);
  EXPECT_EQ(r.archive, (dir_ / "a" / "p.positions.json").string());
  const ArchivedPositions read = readPositionArchives(*scenario_, {(dir_ / "a").string()}, 100);
  EXPECT_TRUE(read.problems.empty()) << read.problems.front();
  EXPECT_EQ(read.files, 1);
  ASSERT_EQ(read.positions.size(), 6u);
  int later = 0;
  for (const env::GameState& s : read.positions) {
    EXPECT_FALSE(s.isTerminal());
    EXPECT_FALSE(s.isChanceNode());
    // What set_state does with a state it is given (engine/session.cpp): exact round trip.
    const env::GameState again = env::stateFromJson(*scenario_, env::stateToJson(s), "test");
    EXPECT_EQ(env::stateToJson(again), env::stateToJson(s));
    later += s.turn > 1;
  }
  EXPECT_GT(later, 0) << "every archived position is from the first turn";
  // The most recent `most` only.
  EXPECT_EQ(readPositionArchives(*scenario_, {(dir_ / "a").string()}, 4).positions.size(), 4u);
}

TEST_F(PositionArchiveTest, AShareOfTheGamesStartsFromArchivedPositionsTheSameForTheSameSeed) {
  runSelfPlay(config("a", "p"), nullptr, nullptr);
  auto starts = std::make_shared<const std::vector<env::GameState>>(
      readPositionArchives(*scenario_, {(dir_ / "a").string()}, 100).positions);
  auto from = [&](const std::string& out, int jobs) {
    SelfPlayConfig c = config(out, "q");
    c.games = 12;
    c.jobs = jobs;
    c.starts = starts;
    c.start_share = 0.5;
    return runSelfPlay(c, nullptr, nullptr);
  };
  const SelfPlayResult b = from("b", 2), c = from("c", 1);
  EXPECT_GT(b.progress.archive_starts, 0);
  EXPECT_LT(b.progress.archive_starts, 12);
  EXPECT_EQ(b.progress.archive_starts, c.progress.archive_starts);
  auto games = [](const SelfPlayResult& r) {
    std::map<uint64_t, GameData> out;
    for (const std::string& path : r.shards)
      for (GameData& g : readShard(path, true).games) out[g.id] = std::move(g);
    return out;
  };
  const auto gb = games(b), gc = games(c);
  ASSERT_EQ(gb.size(), 12u);
  ASSERT_EQ(gc.size(), 12u);
  int shorter = 0;
  for (const auto& [id, g] : gb) {
    EXPECT_EQ(g.planes, gc.at(id).planes) << "game " << id;
    shorter += g.decisions < 20;
  }
  EXPECT_GT(shorter, 0) << "no game began late";
  // Every start: the whole share when it is 1.
  SelfPlayConfig all = config("d", "r");
  all.starts = starts;
  all.start_share = 1;
  EXPECT_EQ(runSelfPlay(all, nullptr, nullptr).progress.archive_starts, all.games);
}

TEST_F(PositionArchiveTest, DamagedAndForeignArchivesAreReportedAndLeftAlone) {
  runSelfPlay(config("a", "p"), nullptr, nullptr);
  const std::string good = (dir_ / "a" / "p.positions.json").string();
  const std::string cut = (dir_ / "a" / "o.positions.json").string();
  std::ofstream(cut) << "{\"format\": \"morne-positions/1\", \"positions\": [";
  // Another scenario's archive, and an archive with one damaged position among good ones.
  SelfPlayConfig other = config("b", "x");
  other.scenario = env::loadScenario("pyramids");
  other.games = 2;
  other.agent = "rule";
  runSelfPlay(other, nullptr, nullptr);
  nlohmann::json damaged = nlohmann::json::parse(std::ifstream(good));
  damaged["positions"][0]["turn"] = "seven";
  const std::string mixed = (dir_ / "b" / "y.positions.json").string();
  std::ofstream(mixed) << damaged.dump();
  const ArchivedPositions read =
      readPositionArchives(*scenario_, {(dir_ / "a").string(), (dir_ / "b").string()}, 100);
  EXPECT_EQ(read.positions.size(), 6u + 5u);
  ASSERT_EQ(read.problems.size(), 3u);
  std::string all;
  for (const std::string& p : read.problems) all += p + "\n";
  EXPECT_NE(all.find("x.positions.json: positions of scenario \"pyramids\""), std::string::npos)
      << all;
  EXPECT_NE(all.find("o.positions.json: not readable"), std::string::npos) << all;
  EXPECT_NE(all.find("y.positions.json: position 0"), std::string::npos) << all;
  for (const std::string& file : {good, cut, mixed}) EXPECT_TRUE(fs::exists(file)) << file;
}

}  // namespace
}  // namespace morne::training
