// Self-play in lock-step: the network agent kind with a fake network (a batch evaluator, no
// LibTorch) plays the same games whether its leaves are evaluated one at a time by the ordinary
// search agent or in batches across 1, 4 or 16 games on 1 or 2 threads, with or without the
// evaluation cache.
// Also the self-play endings: resignation and adjudication.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/network_agent.h"
#include "env/io/scenario_library.h"
#include "mcts/eval_cache.h"
#include "tests/training/temp_dir.h"
#include "training/selfplay.h"
#include "training/shard_reader.h"

namespace morne::training {
namespace {

namespace fs = std::filesystem;

// Priors and value drawn from the state's hash: deterministic, different from leaf to leaf.
class HashBatchEvaluator : public mcts::BatchEvaluator {
 public:
  void evaluate(std::span<const mcts::LeafRequest* const> leaves,
                std::span<double> values) override {
    for (size_t i = 0; i < leaves.size(); ++i) {
      const mcts::LeafRequest& leaf = *leaves[i];
      uint64_t h = leaf.state->hash;
      float total = 0;
      for (size_t k = 0; k < leaf.legal.size(); ++k) {
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        total += leaf.priors[k] = 1.0f + static_cast<float>(h >> 40) / static_cast<float>(1 << 24);
      }
      for (float& p : leaf.priors) p /= total;
      values[i] = static_cast<double>(leaf.state->hash % 1001) / 1000.0 - 0.5;
    }
  }
};

// The "az" kind with a loader that gives the hash evaluator for any model name.
constexpr const char* kFakeNet = "az:model=fake.pt,sims=24";

void useFakeNetworks() {
  agents::setNetworkLoader(
      [](const agents::NetworkLoad&) { return std::make_unique<HashBatchEvaluator>(); });
}

class LockstepTest : public test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    useFakeNetworks();
  }

  SelfPlayConfig config(const std::string& agent, const std::string& prefix) const {
    SelfPlayConfig c;
    c.scenario = env::loadScenario("duel");
    c.agent = agent;
    c.games = 6;
    c.seed = 9;
    c.out_dir = dir_.string();
    c.prefix = prefix;
    c.temperature_moves = 8;
    return c;
  }

  static std::map<uint64_t, GameData> play(const SelfPlayConfig& c,
                                           SelfPlayProgress* progress = nullptr) {
    const SelfPlayResult r = runSelfPlay(c, nullptr, nullptr);
    if (progress) *progress = r.progress;
    std::map<uint64_t, GameData> games;
    for (const std::string& path : r.shards) {
      for (GameData& g : readShard(path, true).games) games[g.id] = std::move(g);
    }
    return games;
  }
};

void expectSameGames(const std::map<uint64_t, GameData>& a, const std::map<uint64_t, GameData>& b,
                     const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (const auto& [id, g] : a) {
    const GameData& h = b.at(id);
    EXPECT_EQ(g.plies, h.plies) << what << ", game " << id;
    EXPECT_EQ(g.winner, h.winner) << what << ", game " << id;
    EXPECT_EQ(g.policy, h.policy) << what << ", game " << id;
    EXPECT_EQ(g.planes, h.planes) << what << ", game " << id;
  }
}

TEST_F(LockstepTest, BatchedGamesEqualOneByOneGames) {
  SelfPlayConfig sync = config(kFakeNet, "sync");
  sync.lockstep = false;
  sync.jobs = 1;
  const auto reference = play(sync);
  ASSERT_EQ(reference.size(), 6u);
  // Under the sanitizers (every search some ten times slower, and ThreadSanitizer's point the
  // threads), two threads with one and with many games each.
  const bool sanitized = !std::string(MORNE_SANITIZERS).empty();
  const std::vector<int> thread_counts = sanitized ? std::vector<int>{2} : std::vector<int>{1, 2};
  const std::vector<int> games_per_thread =
      sanitized ? std::vector<int>{1, 16} : std::vector<int>{1, 4, 16};
  for (int jobs : thread_counts) {
    for (int per_thread : games_per_thread) {
      for (size_t cache : {size_t{0}, size_t{4096}}) {
        SelfPlayConfig c =
            config(kFakeNet, "b" + std::to_string(jobs) + "-" + std::to_string(per_thread) + "-" +
                                 std::to_string(cache));
        c.jobs = jobs;
        c.games_per_thread = per_thread;
        c.cache_entries = cache;
        SelfPlayProgress p;
        expectSameGames(reference, play(c, &p),
                        "jobs " + std::to_string(jobs) + ", " + std::to_string(per_thread) +
                            " per thread, cache " + std::to_string(cache));
        EXPECT_GT(p.batches, 0);
        if (per_thread > 1 && cache == 0) {
          EXPECT_GT(p.evaluated, p.batches) << "batches hold several leaves";
        }
        if (cache > 0) {
          EXPECT_GT(p.cache_hits, 0);
        }
        EXPECT_EQ(p.leaves, p.evaluated + p.cache_hits);
      }
    }
  }
}

TEST_F(LockstepTest, ResignedGamesGoToTheSideThatDidNotResign) {
  SelfPlayConfig c = config("mcts:sims=32", "resign");
  c.games = 8;
  c.jobs = 2;
  c.resign_value = 0.3;
  c.resign_moves = 2;
  c.resign_check_fraction = 0;
  SelfPlayProgress p;
  const auto games = play(c, &p);
  int resigned = 0;
  for (const auto& [id, g] : games) {
    if (g.end != kEndResigned) continue;
    ++resigned;
    ASSERT_GE(g.winner, 0);
    EXPECT_EQ(g.level, 0);
    for (int row = 0; row < g.rows; ++row) {
      EXPECT_EQ(g.value[static_cast<size_t>(row)],
                g.side[static_cast<size_t>(row)] == g.winner ? 1.0f : -1.0f);
    }
  }
  EXPECT_GT(resigned, 0);
  EXPECT_EQ(resigned, p.resigned);

  SelfPlayConfig check = config("mcts:sims=32", "check");
  check.games = 8;
  check.resign_value = 0.3;
  check.resign_moves = 2;
  check.resign_check_fraction = 1;  // nobody resigns; count who would have
  SelfPlayProgress q;
  for (const auto& [id, g] : play(check, &q)) EXPECT_NE(g.end, kEndResigned);
  EXPECT_EQ(q.resigned, 0);
  EXPECT_GT(q.resign_checks, 0);
  EXPECT_LE(q.false_resignations, q.resign_checks);
}

TEST_F(LockstepTest, AdjudicationStopsGamesAfterTheirDecisions) {
  SelfPlayConfig c = config(kFakeNet, "adj");
  c.adjudicate_decisions = 12;
  SelfPlayProgress p;
  const auto games = play(c, &p);
  ASSERT_EQ(games.size(), 6u);
  for (const auto& [id, g] : games) {
    EXPECT_EQ(g.decisions, 12);
    EXPECT_EQ(g.end, kEndAdjudicated);
  }
  EXPECT_EQ(p.adjudicated, 6);
}

}  // namespace
}  // namespace morne::training
