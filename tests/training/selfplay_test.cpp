// Self-play end to end: games of a small search agent on duel become shards whose rows are
// consistent (policy targets on legal actions summing to 1, value targets matching the result
// and the mover), the same seed gives the same data whatever the number of jobs, and playout
// cap randomisation records only the fully searched decisions.

#include "training/selfplay.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "env/error.h"
#include "env/io/scenario_library.h"
#include "nn/observation.h"
#include "tests/training/temp_dir.h"
#include "training/final_targets.h"
#include "training/shard_check.h"
#include "training/shard_reader.h"

namespace morne::training {
namespace {

namespace fs = std::filesystem;

class SelfPlayTest : public test::TempDirTest {
 protected:
  SelfPlayConfig config(const std::string& prefix) const {
    SelfPlayConfig c;
    c.scenario = env::loadScenario("duel");
    c.agent = "mcts:sims=16";
    c.games = 4;
    c.jobs = 2;
    c.seed = 3;
    c.out_dir = dir_.string();
    c.prefix = prefix;
    c.rows_per_shard = 100;
    c.temperature_moves = 10;
    return c;
  }

  // Every game of the shards, by game id.
  static std::map<uint64_t, GameData> readGames(const std::vector<std::string>& shards) {
    std::map<uint64_t, GameData> games;
    for (const std::string& path : shards) {
      for (GameData& g : readShard(path, true).games) games[g.id] = std::move(g);
    }
    return games;
  }
};

TEST_F(SelfPlayTest, WritesConsistentTrainingRows) {
  const SelfPlayConfig c = config("a");
  int calls = 0;
  const SelfPlayResult r = runSelfPlay(
      c, [&](const SelfPlayProgress& p) { EXPECT_EQ(p.games_done, ++calls); }, nullptr);
  EXPECT_EQ(calls, 4);
  EXPECT_FALSE(r.interrupted);
  ASSERT_FALSE(r.shards.empty());
  const std::map<uint64_t, GameData> games = readGames(r.shards);
  ASSERT_EQ(games.size(), 4u);
  const ShardContents head = readShard(r.shards[0], false);
  EXPECT_EQ(head.scenario, "duel");
  EXPECT_EQ(head.blue_agent, "mcts:sims=16");
  const size_t policy = static_cast<size_t>(head.shape.policy);
  int64_t rows = 0;
  for (const auto& [id, g] : games) {
    ASSERT_GT(g.rows, 0);
    EXPECT_EQ(g.rows, g.decisions);  // no playout cap: every decision is recorded
    EXPECT_EQ(g.handicap_half, -3) << "duel's handicap, 1.5 VP to orange, recorded per game";
    // The winner follows from the score: the map's VP and the handicap.
    const int score_half = 2 * (g.vp_blue - g.vp_orange) + g.handicap_half;
    if (g.end == kEndRules) {
      EXPECT_EQ(g.winner, score_half > 0 ? 0 : score_half < 0 ? 1 : -1) << "game " << id;
    }
    rows += g.rows;
    for (int row = 0; row < g.rows; ++row) {
      double total = 0;
      bool legal_somewhere = false;
      for (size_t i = 0; i < policy; ++i) {
        const float p = g.policy[static_cast<size_t>(row) * policy + i];
        const uint8_t legal = g.legal[static_cast<size_t>(row) * policy + i];
        ASSERT_TRUE(p == 0.0f || legal)
            << "policy mass on an illegal action, game " << id << " row " << row;
        total += p;
        legal_somewhere |= legal != 0;
      }
      EXPECT_TRUE(legal_somewhere);
      EXPECT_NEAR(total, 1.0, 1e-4);
      const float expected = g.winner < 0                                   ? 0.0f
                             : g.winner == g.side[static_cast<size_t>(row)] ? 1.0f
                                                                            : -1.0f;
      EXPECT_EQ(g.value[static_cast<size_t>(row)], expected);
      EXPECT_EQ(g.move[static_cast<size_t>(row)], row);
      for (size_t i = 0; i < static_cast<size_t>(head.shape.planeSize()); ++i) {
        ASSERT_TRUE(std::isfinite(
            g.planes[static_cast<size_t>(row) * static_cast<size_t>(head.shape.planeSize()) + i]));
      }
    }
  }
  EXPECT_EQ(rows, r.progress.positions);
  // The search's root values: one per row, within [-1, 1], and not the results themselves.
  int differ = 0;
  for (const auto& [id, g] : games) {
    ASSERT_EQ(g.search_value.size(), static_cast<size_t>(g.rows));
    for (size_t row = 0; row < g.search_value.size(); ++row) {
      EXPECT_GE(g.search_value[row], -1.0f);
      EXPECT_LE(g.search_value[row], 1.0f);
      differ += g.search_value[row] != g.value[row];
    }
  }
  EXPECT_GT(differ, rows / 2);
  // The auxiliary targets: every decision is recorded here (row = decision), so the short-term
  // values follow from the rows' search values; the shard passes every check.
  for (const auto& [id, g] : games) {
    std::vector<DecisionValue> decisions;
    for (size_t row = 0; row < static_cast<size_t>(g.rows); ++row)
      decisions.push_back({g.side[row], g.search_value[row]});
    const float blue_result = g.winner == 0 ? 1.0f : g.winner == 1 ? -1.0f : 0.0f;
    for (size_t h = 0; h < kShortValueHorizons.size(); ++h) {
      std::vector<float> blue(decisions.size());
      shortTermValues(decisions, blue_result, kShortValueHorizons[h], blue);
      for (size_t row = 0; row < blue.size(); ++row) {
        const float mine = g.side[row] == 0 ? 1.0f : -1.0f;
        EXPECT_NEAR(g.short_value[row * kShortValueHorizons.size() + h], mine * blue[row], 1e-5)
            << "game " << id << " row " << row << " horizon " << kShortValueHorizons[h];
      }
    }
  }
  for (const std::string& shard : r.shards)
    EXPECT_EQ(checkShard(readShard(shard, true)).problem_count, 0) << shard;
}

// Agents that do not search keep no search value: the result stands in.
TEST_F(SelfPlayTest, RowsOfAgentsThatDoNotSearchHoldTheResultAsTheirSearchValue) {
  SelfPlayConfig c = config("rule");
  c.agent = "rule";
  c.games = 2;
  for (const auto& [id, g] : readGames(runSelfPlay(c, nullptr, nullptr).shards))
    EXPECT_EQ(g.search_value, g.value) << "game " << id;
}

// --value-teacher: a search of the teacher values every recorded position beside the game's
// own; it changes nothing of the play, its values are the same whatever the jobs, NaN where it
// did not search, and a bad teacher spec fails before any file.
TEST_F(SelfPlayTest, AValueTeacherRecordsItsSearchValuesAndPlaysNothing) {
  SelfPlayConfig plain = config("plain");
  plain.agent = "rule";
  SelfPlayConfig taught = plain;
  taught.prefix = "taught";
  taught.value_teacher = "mcts:sims=32";
  SelfPlayConfig taught_one = taught;
  taught_one.prefix = "taught-one";
  taught_one.jobs = 1;
  const auto without = readGames(runSelfPlay(plain, nullptr, nullptr).shards);
  const auto with = readGames(runSelfPlay(taught, nullptr, nullptr).shards);
  const auto with_one = readGames(runSelfPlay(taught_one, nullptr, nullptr).shards);
  ASSERT_EQ(with.size(), without.size());
  int searched = 0, differs = 0;
  for (const auto& [id, g] : with) {
    const GameData& h = without.at(id);
    EXPECT_EQ(g.planes, h.planes) << "game " << id;
    EXPECT_EQ(g.winner, h.winner);
    for (float t : h.teacher_value) EXPECT_TRUE(std::isnan(t)) << "no teacher: unknown";
    ASSERT_EQ(g.teacher_value.size(), static_cast<size_t>(g.rows));
    const GameData& one = with_one.at(id);
    for (int r = 0; r < g.rows; ++r) {
      const float t = g.teacher_value[static_cast<size_t>(r)];
      const float t1 = one.teacher_value[static_cast<size_t>(r)];
      EXPECT_TRUE(std::isnan(t) ? std::isnan(t1) : t == t1) << "game " << id << " row " << r;
      if (std::isnan(t)) continue;
      ++searched;
      EXPECT_GE(t, -1.0f);
      EXPECT_LE(t, 1.0f);
      differs += t != g.value[static_cast<size_t>(r)];
    }
  }
  EXPECT_GT(searched, 20);
  EXPECT_GT(differs, searched / 2) << "a search's values are not the results";

  SelfPlayConfig bad = config("bad");
  bad.value_teacher = "mcts:simz=3";
  fs::remove_all(dir_);
  try {
    runSelfPlay(bad, nullptr, nullptr);
    ADD_FAILURE() << "a bad teacher was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--value-teacher"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_));
}

TEST_F(SelfPlayTest, SameSeedSameDataWhateverTheJobs) {
  SelfPlayConfig one = config("one");
  one.jobs = 1;
  SelfPlayConfig two = config("two");
  two.jobs = 2;
  const std::map<uint64_t, GameData> a = readGames(runSelfPlay(one, nullptr, nullptr).shards);
  const std::map<uint64_t, GameData> b = readGames(runSelfPlay(two, nullptr, nullptr).shards);
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [id, g] : a) {
    const GameData& h = b.at(id);
    EXPECT_EQ(g.seed, h.seed);
    EXPECT_EQ(g.plies, h.plies);
    EXPECT_EQ(g.winner, h.winner);
    EXPECT_EQ(g.policy, h.policy);
    EXPECT_EQ(g.planes, h.planes);
  }
}

TEST_F(SelfPlayTest, PlayoutCapRecordsOnlyFullSearches) {
  SelfPlayConfig c = config("cap");
  c.cheap_sims = 4;
  c.full_search_probability = 0.3;
  const SelfPlayResult r = runSelfPlay(c, nullptr, nullptr);
  EXPECT_GT(r.progress.positions, 0);
  EXPECT_LT(r.progress.positions, r.progress.decisions * 6 / 10);
  int64_t rows = 0;
  for (const auto& [id, g] : readGames(r.shards)) {
    EXPECT_LT(g.rows, g.decisions);
    rows += g.rows;
  }
  EXPECT_EQ(rows, r.progress.positions);
}

TEST_F(SelfPlayTest, AStopRequestWritesOnlyFinishedGames) {
  SelfPlayConfig c = config("stop");
  c.games = 50;
  c.jobs = 1;
  std::atomic<bool> stop{false};
  const SelfPlayResult r = runSelfPlay(
      c,
      [&](const SelfPlayProgress& p) {
        if (p.games_done == 2) stop = true;
      },
      &stop);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.progress.games_done, 2);
  EXPECT_EQ(readGames(r.shards).size(), 2u);
}

TEST_F(SelfPlayTest, BadSpecFailsBeforeAnyFile) {
  SelfPlayConfig c = config("bad");
  c.agent = "mcts:simz=3";
  EXPECT_THROW(runSelfPlay(c, nullptr, nullptr), ConfigError);
  EXPECT_FALSE(fs::exists(dir_));
  // Training data hold the agent actions: an agent that may step back would not fit them.
  c.agent = "mcts:sims=8,prune=0";
  EXPECT_THROW(runSelfPlay(c, nullptr, nullptr), ConfigError);
  c.agent = "rule:prune=0";
  EXPECT_THROW(runSelfPlay(c, nullptr, nullptr), ConfigError);
  c.agent = "rule:prune=0.0";  // the same value, however written
  EXPECT_THROW(runSelfPlay(c, nullptr, nullptr), ConfigError);
  EXPECT_FALSE(fs::exists(dir_));
}

// Balancing (issue 29): the boosted side searches with its own budget; orange, the weaker side
// of duel, wins more of the same games with 128 simulations against 4 than at 4 against 4. A
// boost without a side is refused before any file.
TEST_F(SelfPlayTest, ABoostedSideSearchesMoreAndWinsMore) {
  auto orangeWins = [&](const std::string& prefix, int boost) {
    SelfPlayConfig c = config(prefix);
    c.agent = "mcts:sims=4";
    c.games = 16;
    if (boost > 0) {
      c.boost_side = "orange";
      c.boost_sims = boost;
    }
    int wins = 0;
    for (const auto& [id, g] : readGames(runSelfPlay(c, nullptr, nullptr).shards))
      wins += g.winner == 1;
    return wins;
  };
  const int plain = orangeWins("plain", 0), boosted = orangeWins("boosted", 128);
  EXPECT_GT(boosted, plain) << "orange won " << plain << " of 16 unboosted, " << boosted
                            << " boosted";
  SelfPlayConfig bad = config("bad");
  bad.boost_sims = 64;
  bad.boost_side = "purple";
  fs::remove_all(dir_);
  EXPECT_THROW(runSelfPlay(bad, nullptr, nullptr), ConfigError);
  EXPECT_FALSE(fs::exists(dir_ / "bad-0000.h5"));
}

// Handicap randomisation (issue 49): each game draws its handicap within the spread around the
// scenario's (duel: +1.5 VP to orange, -3 half points); every row sees it from its mover
// (handicap_mine, the last global), and its value and margin targets count it. A spread that is
// no whole or half VP is refused before any file.
TEST_F(SelfPlayTest, GamesDrawTheirHandicapWithinTheSpreadAndRowsCarryIt) {
  SelfPlayConfig c = config("spread");
  c.agent = "mcts:sims=4";
  c.games = 12;
  c.handicap_spread = 1;
  std::set<int> drawn;
  const size_t globals = nn::ObservationEncoder::globalNames().size();
  for (const auto& [id, g] : readGames(runSelfPlay(c, nullptr, nullptr).shards)) {
    SCOPED_TRACE("game " + std::to_string(id));
    EXPECT_GE(g.handicap_half, -5);
    EXPECT_LE(g.handicap_half, -1);
    drawn.insert(g.handicap_half);
    const int score = 2 * (g.vp_blue - g.vp_orange) + g.handicap_half;
    EXPECT_EQ(g.winner, score > 0 ? 0 : (score < 0 ? 1 : -1));
    for (int row = 0; row < g.rows; ++row) {
      const float mine = g.side[static_cast<size_t>(row)] == 0 ? 1.0f : -1.0f;
      EXPECT_FLOAT_EQ(g.globals[static_cast<size_t>(row) * globals + globals - 1],
                      mine * static_cast<float>(g.handicap_half) / 20);
      EXPECT_FLOAT_EQ(g.margin[static_cast<size_t>(row)], mine * finalMargin(g));
    }
  }
  EXPECT_GE(drawn.size(), 3u) << "12 games drew " << drawn.size() << " handicaps of 5";
  SelfPlayConfig bad = config("bad");
  bad.handicap_spread = 0.3;
  fs::remove_all(dir_);
  EXPECT_THROW(runSelfPlay(bad, nullptr, nullptr), ConfigError);
  EXPECT_FALSE(fs::exists(dir_));
}

TEST(CheapSearchSpec, ReplacesTheBudgetAndDropsTheNoise) {
  EXPECT_EQ(cheapSearchSpec("mcts:sims=200,cpuct=2", 8), "mcts:cpuct=2,sims=8");
  EXPECT_EQ(cheapSearchSpec("mcts:ms=50", 8), "mcts:sims=8");
  EXPECT_EQ(cheapSearchSpec("mcts:turn_ms=500", 8), "mcts:sims=8");
  EXPECT_EQ(cheapSearchSpec("az:model=n.pt,noise=0.3,noise_fraction=0.5", 16),
            "az:model=n.pt,sims=16");
}

// Self-play's az searches take one leaf at a time, as lock-step self-play does (the same data
// either way); a spec that asks for batches is refused, other kinds are left as they are.
TEST(OneLeafAtATime, SelfPlaySearchesOneLeafAtATime) {
  EXPECT_EQ(oneLeafAtATime("az:model=n.pt,sims=32"), "az:batch=1,model=n.pt,sims=32");
  EXPECT_EQ(oneLeafAtATime("az:batch=1,model=n.pt"), "az:batch=1,model=n.pt");
  EXPECT_EQ(oneLeafAtATime("mcts:sims=200"), "mcts:sims=200");
  EXPECT_THROW(oneLeafAtATime("az:model=n.pt,batch=8"), ConfigError);
}

}  // namespace
}  // namespace morne::training
