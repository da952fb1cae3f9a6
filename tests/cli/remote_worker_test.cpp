// A worker without the run folder (docs/scale-out.md, "Without a shared filesystem"): `morne
// loop serve` and `morne loop worker DIR --remote URL` as processes. Killed with SIGKILL again
// and again, at any point of its chunks and uploads, the worker loses at most its game in
// progress: every game it finished reaches the run once, in shards the learner reads whole, and
// nothing is left behind in either folder. Labelled "scale" with the other multi-process runs.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/cli/test_process.h"
#include "training/training_data.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

TEST(RemoteWorker, KilledAtAnyPointItLosesOnlyItsGameInProgress) {
  const std::string dir = freshTestDir("remote");
  ASSERT_EQ(runMorne("loop init --out " + dir +
                     "/run --scenario duel --generations 1 --bootstrap mcts:sims=30 "
                     "--bootstrap-games 100000 --chunk-games 2")
                .exit_code,
            0);
  const std::string worker =
      "MORNE loop worker mine --remote http://127.0.0.1:$port "
      "--token-file run/token --worker r1 --jobs 1 --quiet";
  const ProcessResult r = runShell(
      "cd " + dir +
      " || exit 1; MORNE loop serve run --port 0 > serve.txt 2>&1 & s=$!; "
      "for i in $(seq 500); do grep -q 'loop serve: http' serve.txt && break; sleep 0.01; done; "
      "port=$(grep -o '127.0.0.1:[0-9]*' serve.txt | cut -d: -f2); "
      // Killed five times, 0.3 to 1.5 s after it starts: before, during and after uploads.
      "for delay in 0.3 1.5 0.7 1.1 0.5; do " +
      worker +
      " >> worker.txt 2>&1 & w=$!; sleep $delay; kill -KILL $w; wait $w; echo \"killed $?\"; "
      "done; " +
      worker + " --max-games 2 >> worker.txt 2>&1; echo \"last $?\"; " +
      "kill -INT $s; wait $s; echo \"serve $?\"; cat serve.txt");
  EXPECT_NE(r.output.find("killed 137"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("last 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("serve 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" 0 refused, 0 requests without the token"), std::string::npos)
      << r.output;
  // Every game once, in shards that read whole.
  const std::string set = dir + "/run/selfplay/gen-000";
  const std::vector<std::string> shards = filesEndingWith(set, ".h5");
  ASSERT_FALSE(shards.empty());
  training::ShardSummaries summaries;
  std::set<uint64_t> seeds;
  size_t games = 0;
  for (const std::string& shard : shards) {
    for (const auto& g : summaries.of(shard).games) {
      seeds.insert(g.seed);
      ++games;
    }
  }
  EXPECT_EQ(seeds.size(), games);
  EXPECT_GE(games, 2u);
  EXPECT_EQ(training::indexShards({set}, 0).games, games);
  // Nothing left unsent by the worker, nothing half-received by the server.
  EXPECT_TRUE(filesEndingWith(dir + "/mine/selfplay/gen-000", ".h5").empty());
  EXPECT_TRUE(filesEndingWith(dir + "/mine/selfplay/gen-000", ".journal").empty());
  EXPECT_TRUE(filesEndingWith(dir + "/run/incoming", ".part").empty());
  // The run knows the worker's totals.
  std::ifstream totals(dir + "/run/workers/r1.json");
  EXPECT_EQ(nlohmann::json::parse(totals, nullptr, false).value("worker", ""), "r1");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace morne::test
