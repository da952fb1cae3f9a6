// Searches in the engine protocol run on the session's search thread: "analyze" reports while
// it runs, "stop" ends a search at once, requests sent meanwhile are answered after it in
// order, "quit" ends the session once the requests before it are answered. Its own
// executable, which scripts/test.sh also runs under ThreadSanitizer.

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "engine/session.h"

namespace morne::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// A session whose replies are collected, in order, as another thread sees them.
class AsyncClient {
 public:
  AsyncClient()
      : session_(1, [this](const std::string& line) {
          std::lock_guard lock(mutex_);
          replies_.push_back(json::parse(line));
          arrived_.notify_all();
        }) {}

  void send(const json& request) { session_.submit(request.dump()); }
  void drain() { session_.drain(); }
  bool quitRequested() const { return session_.quitRequested(); }

  // Waits (up to 60 s) until `count` replies have arrived.
  bool waitFor(size_t count) {
    std::unique_lock lock(mutex_);
    return arrived_.wait_for(lock, 60s, [&] { return replies_.size() >= count; });
  }
  std::vector<json> replies() {
    std::lock_guard lock(mutex_);
    return replies_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<json> replies_;
  engine::EngineSession session_;  // last: destroyed first, while the collector still lives
};

TEST(EngineSearch, AnalyzeReportsUntilStopAndRequestsWaitInOrder) {
  AsyncClient c;
  c.send({{"cmd", "load"}, {"scenario", "duel"}, {"id", 1}});
  c.send({{"cmd", "analyze"}, {"agent", "mcts"}, {"period_ms", 50}, {"top", 3}, {"id", 2}});
  ASSERT_TRUE(c.waitFor(3)) << "the load reply and two reports";
  c.send({{"cmd", "legal"}, {"id", 3}});
  c.send({{"cmd", "stop"}, {"id", 4}});
  c.drain();
  const std::vector<json> r = c.replies();
  ASSERT_GE(r.size(), 5u);
  EXPECT_EQ(r[0]["id"], 1);
  int last_simulations = 0;
  size_t i = 1;
  for (; i < r.size() && r[i]["cmd"] == "analyze" && r[i]["final"] == false; ++i) {
    EXPECT_EQ(r[i]["id"], 2);
    EXPECT_EQ(r[i]["update"], static_cast<int>(i));
    EXPECT_GT(r[i]["simulations"].get<int>(), last_simulations) << "the search goes on";
    last_simulations = r[i]["simulations"].get<int>();
    EXPECT_LE(r[i]["children"].size(), 3u);
    EXPECT_FALSE(r[i]["pv"].empty());
  }
  EXPECT_GE(i, 3u) << "at least two reports before the end";
  ASSERT_EQ(r.size(), i + 3) << "the final report, then legal and stop";
  EXPECT_EQ(r[i]["id"], 2);
  EXPECT_EQ(r[i]["final"], true);
  EXPECT_EQ(r[i]["stopped"], true);
  EXPECT_EQ(r[i + 1]["id"], 3);
  EXPECT_GT(r[i + 1]["count"].get<int>(), 0);
  EXPECT_EQ(r[i + 2]["id"], 4);
  EXPECT_TRUE(r[i + 2]["ok"]);
}

TEST(EngineSearch, StopEndsAGenmoveWithItsBestSoFar) {
  AsyncClient c;
  c.send({{"cmd", "load"}, {"scenario", "duel"}});
  c.send({{"cmd", "genmove"}, {"agent", "mcts:sims=10000000"}, {"play", true}, {"id", "g"}});
  c.send({{"cmd", "state"}, {"id", "s"}});
  std::this_thread::sleep_for(100ms);
  const auto t0 = std::chrono::steady_clock::now();
  c.send({{"cmd", "stop"}});
  c.drain();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  const std::vector<json> r = c.replies();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[1]["id"], "g");
  EXPECT_EQ(r[1]["stopped"], true);
  EXPECT_LT(r[1]["simulations"].get<int>(), 10'000'000);
  EXPECT_EQ(r[1]["ply"], 1) << "played, as asked";
  EXPECT_EQ(r[2]["id"], "s") << "the state waited for the search";
  bool moved = false;  // the state reflects the move played
  for (const json& u : r[2]["state"]["units"]) moved = moved || u.contains("trail");
  EXPECT_TRUE(moved);
}

// Regression: a piped script's last "quit" cut the genmove before it to one simulation.
TEST(EngineSearch, QuitLetsTheSearchBeforeItFinish) {
  AsyncClient c;
  c.send({{"cmd", "load"}, {"scenario", "duel"}});
  c.send({{"cmd", "genmove"}, {"agent", "mcts:sims=3000"}, {"id", "g"}});
  c.send({{"cmd", "legal"}, {"id", "l"}});
  c.send({{"cmd", "quit"}});
  EXPECT_TRUE(c.quitRequested()) << "the reader stops reading at once";
  c.drain();
  const std::vector<json> r = c.replies();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[1]["id"], "g");
  EXPECT_EQ(r[1]["stopped"], false) << r[1].dump();
  EXPECT_GE(r[1]["simulations"].get<int>(), 3000) << "the whole budget was searched";
  EXPECT_EQ(r[2]["id"], "l") << "the request before quit was answered";
  EXPECT_EQ(r[3]["cmd"], "quit");
}

TEST(EngineSearch, QuitEndsTheSearchAndTheSession) {
  AsyncClient c;
  c.send({{"cmd", "load"}, {"scenario", "duel"}});
  c.send({{"cmd", "analyze"}, {"agent", "mcts"}});  // until stopped: quit stops it
  c.send({{"cmd", "quit"}});
  EXPECT_TRUE(c.quitRequested()) << "the reader stops reading at once";
  c.send({{"cmd", "legal"}});  // after quit: not served
  c.drain();
  const std::vector<json> r = c.replies();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1]["cmd"], "analyze");
  EXPECT_EQ(r[1]["stopped"], true);
  EXPECT_EQ(r[2]["cmd"], "quit");
}

TEST(EngineSearch, ASessionDestroyedDuringASearchStopsIt) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    AsyncClient c;
    c.send({{"cmd", "load"}, {"scenario", "duel"}});
    c.send({{"cmd", "genmove"}, {"agent", "mcts:sims=10000000"}});
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
}

TEST(EngineSearch, HandleWaitsForASearchAndReturnsItsLastReply) {
  engine::EngineSession session(1);
  bool quit = false;
  session.handle(R"({"cmd":"load","scenario":"duel"})", &quit);
  const json r = json::parse(
      session.handle(R"({"cmd":"analyze","agent":"mcts","ms":120,"period_ms":50})", &quit));
  EXPECT_EQ(r["final"], true);
  EXPECT_EQ(r["stopped"], false) << r.dump();
  EXPECT_GE(r["update"].get<int>(), 2);
  const json rule = json::parse(session.handle(R"({"cmd":"analyze","agent":"rule"})", &quit));
  EXPECT_EQ(rule["final"], true) << "an agent that does not search reports once";
}

}  // namespace
}  // namespace morne::test
