// A worker without the run folder (docs/scale-out.md, "Without a shared filesystem"): `morne
// loop serve` and `morne loop worker DIR --remote URL` as processes. Killed with SIGKILL again
// and again, at any point of its chunks and uploads, the worker loses at most its game in
// progress: every game it finished reaches the run once, in shards the learner reads whole, and
// nothing is left behind in either folder. Labelled "scale" with the other multi-process runs.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "env/io/crc32.h"
#include "http/http_client.h"
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

// The open descriptors of process `pid`.
int descriptorsOf(const std::string& pid) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/" + pid + "/fd")) ++n;
  return n;
}

std::string crcText(const std::string& bytes) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", env::crc32Of(bytes));
  return text;
}

// Refused uploads leave nothing behind in `morne loop serve`: a thousand HDF5 files that are
// no shards (the right CRC-32 over them), each answered 422 "not a readable shard", leave the
// server with the descriptors and about the memory it had (each used to keep its HDF5 file
// open: 1,100 uploads took a server from 7 to 1,107 descriptors and 164 to 743 MB). Shards
// whose bytes crash libhdf5 are read in a child process (ShardDamageTest in training_tests).
TEST(RemoteWorker, AThousandRefusedUploadsLeaveNothingInTheServer) {
  const std::string dir = freshTestDir("refused");
  ASSERT_EQ(runMorne("loop init --out " + dir +
                     "/run --scenario duel --generations 1 "
                     "--bootstrap random --chunk-games 2")
                .exit_code,
            0);
  ASSERT_EQ(runMorne("selfplay --scenario duel --agent random --games 1 --out " + dir +
                     "/shards --prefix s")
                .exit_code,
            0);
  const std::vector<std::string> shards = filesEndingWith(dir + "/shards", ".h5");
  ASSERT_EQ(shards.size(), 1u);
  std::ifstream in(shards[0], std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // An HDF5 file that opens but is no shard: the name of its "format" attribute changed.
  const size_t name = bytes.find(std::string("format\0", 7));
  ASSERT_NE(name, std::string::npos);
  bytes[name + 5] = 'X';
  const std::string file = dir + "/broken.h5";
  std::ofstream(file, std::ios::binary) << bytes;
  ASSERT_EQ(
      runShell("cd " + dir +
               " && { MORNE loop serve run --port 0 > serve.txt 2>&1 & echo $! > serve.pid; }; "
               "for i in $(seq 500); do grep -q 'loop serve: http' serve.txt && break; "
               "sleep 0.01; done")
          .exit_code,
      0);
  std::string pid, serve;
  std::ifstream(dir + "/serve.pid") >> pid;
  {
    std::ifstream text(dir + "/serve.txt");
    serve.assign(std::istreambuf_iterator<char>(text), std::istreambuf_iterator<char>());
  }
  const size_t at = serve.find("127.0.0.1:");
  ASSERT_NE(at, std::string::npos) << serve;
  std::string token;
  std::ifstream(dir + "/run/token") >> token;
  http::HttpClient client("http://127.0.0.1:" + std::to_string(std::stoi(serve.substr(at + 10))),
                          token);
  const auto put = [&] {
    return client.putFile("/v1/selfplay/gen-000/w1-0-0000.h5", file,
                          {{"X-Morne-Crc32", crcText(bytes)}});
  };
  const http::HttpAnswer first = put();
  EXPECT_EQ(first.status, 422) << first.body;
  EXPECT_NE(first.body.find("not a readable shard"), std::string::npos) << first.body;
  const int descriptors = descriptorsOf(pid);
  const int64_t rss = processStatusKb(pid);
  int refused = 0;
  for (int i = 0; i < 1000; ++i) refused += put().status == 422;
  const int descriptors_after = descriptorsOf(pid);
  const int64_t rss_after = processStatusKb(pid);
  std::cout << "loop serve after 1000 refused uploads: descriptors " << descriptors << " -> "
            << descriptors_after << ", resident " << rss / 1024 << " -> " << rss_after / 1024
            << " MB\n";
  EXPECT_EQ(refused, 1000);
  EXPECT_LE(descriptors_after, descriptors + 2);
  EXPECT_LT(rss_after - rss, 16 * 1024);
  // A large upload is checked as it lies on disk: 256 MiB leave the server's memory as it was
  // (two uploads of 400 MiB once took it from 164 to 1,041 MB).
  const std::string large = dir + "/large.h5";
  std::string block(1 << 20, '\0');
  for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i * 2654435761u >> 24);
  {
    std::ofstream out(large, std::ios::binary);
    for (int i = 0; i < 256; ++i) out << block;
  }
  uint32_t crc = 0;
  {
    std::string all;
    std::ifstream in_large(large, std::ios::binary);
    all.assign(std::istreambuf_iterator<char>(in_large), std::istreambuf_iterator<char>());
    crc = env::crc32Of(all);
  }
  char crc_text[16];
  std::snprintf(crc_text, sizeof crc_text, "%08x", crc);
  const int64_t peak_before_large = processStatusKb(pid, "VmHWM:");
  const http::HttpAnswer big =
      client.putFile("/v1/selfplay/gen-000/w1-1-0000.h5", large, {{"X-Morne-Crc32", crc_text}});
  EXPECT_EQ(big.status, 422) << big.body;  // its CRC-32 right, the shard not readable
  const int64_t peak_after_large = processStatusKb(pid, "VmHWM:");
  std::cout << "loop serve around a 256 MiB upload: peak resident " << peak_before_large / 1024
            << " -> " << peak_after_large / 1024 << " MB\n";
  EXPECT_LT(peak_after_large - peak_before_large, 32 * 1024);
  EXPECT_TRUE(filesEndingWith(dir + "/run/incoming", ".part").empty());
  EXPECT_TRUE(filesEndingWith(dir + "/run/selfplay/gen-000", ".h5").empty());
  EXPECT_EQ(runShell("kill -INT " + pid + "; for i in $(seq 500); do kill -0 " + pid +
                     " 2>/dev/null || exit 0; sleep 0.01; done; exit 1")
                .exit_code,
            0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace morne::test
