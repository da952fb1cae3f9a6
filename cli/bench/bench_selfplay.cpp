// `morne bench selfplay`: what self-play achieves with the default network (random weights):
// positions/s on 1 and 2 worker threads (the same games), the batching evaluator's
// evaluations/s against raw inference at the same batch size measured right after it, and the
// HDF5 writer's rows/s on the rows self-play wrote, in interleaved rounds
// (cli/bench/bench_stats.h). The agent uses the Gumbel root: with PUCT and its first-play reduction
// an untrained network ends every phase at once, and such games are no measure of real self-play.

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "agents/agent_spec.h"
#include "cli/bench/bench.h"
#include "cli/bench/bench_stats.h"
#include "cli/commands.h"
#include "core/number_text.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "nn/network.h"
#include "training/row_encoder.h"
#include "training/selfplay.h"
#include "training/shard_reader.h"
#include "training/shard_writer.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One self-play run: 32 lock-step games split over `threads` worker threads (the same games,
// 0 to 31, whatever the thread count), stopped after `seconds`; or, with `games` > 0, that
// many whole games (to have rows to write).
struct SelfPlayRun {
  double positions_per_second = 0;
  double batch = 0;         // mean network batch
  double evals_in_net = 0;  // evaluations per second of time inside the batch evaluator
  std::vector<std::string> shards;
};

constexpr int kSims = 32;
constexpr int kLockStepGames = 32;

SelfPlayRun timedSelfPlay(const std::shared_ptr<const env::Scenario>& sc, const std::string& model,
                          int threads, double seconds, uint64_t seed, const std::string& out,
                          int games = 0) {
  training::SelfPlayConfig c;
  c.scenario = sc;
  c.agent = agents::withModel("az:sims=" + std::to_string(kSims) + ",gumbel=1", model);
  c.jobs = threads;
  c.games_per_thread = kLockStepGames / threads;
  c.games = games > 0 ? games : 1'000'000;  // else stopped after `seconds`
  if (games > 0) seconds = 1e9;
  c.seed = seed;
  c.out_dir = out;
  c.prefix = "bench";
  std::atomic<bool> stop{false};
  std::mutex m;
  std::condition_variable done;
  bool finished = false;
  std::thread timer([&] {
    std::unique_lock lock(m);
    done.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return finished; });
    stop = true;
  });
  const training::SelfPlayResult r = training::runSelfPlay(c, nullptr, &stop);
  {
    std::lock_guard lock(m);
    finished = true;
  }
  done.notify_one();
  timer.join();
  const training::SelfPlayProgress& p = r.progress;
  SelfPlayRun run;
  run.positions_per_second = static_cast<double>(p.positions_played) / p.seconds;
  run.batch =
      static_cast<double>(p.evaluated) / static_cast<double>(std::max<int64_t>(1, p.batches));
  run.evals_in_net = static_cast<double>(p.evaluated) / p.evaluator_seconds * threads;
  run.shards = r.shards;
  return run;
}

}  // namespace

int benchSelfplay(const BenchConfig& bench) {
  std::vector<std::string> names = bench.scenarios;
  if (names.empty()) names = {"duel"};
  const double seconds = bench.seconds;
  const int repeats = bench.repeats;
  const uint64_t seed = bench.seed;
  const double each = seconds / repeats;
  const fs::path dir =
      fs::temp_directory_path() / ("morne-bench-selfplay-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::cout << core::versionLine()
            << "\nbench selfplay: default network (random weights), az sims=" << kSims
            << " with the Gumbel root, the same " << kLockStepGames
            << " lock-step games on 1 and 2 worker threads, one LibTorch thread per worker; "
            << repeats << " interleaved rounds of " << core::fixedText(each, 2)
            << " s a measurement; " << loadText() << "\n";
  nn::configureTorchRuntime(1);
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    const nn::NetworkConfig nc = nn::networkConfigFor(*sc);
    const std::string model = (dir / (name + ".pt")).string();
    const auto net = nn::Network::create(nc, 1);
    net->save(model);
    int run_number = 0;
    auto out = [&] { return (dir / (name + "-" + std::to_string(run_number++))).string(); };
    // Warm-up, and the rows the writer is measured on: 8 whole games.
    const std::vector<std::string> shards = timedSelfPlay(sc, model, 2, 0, seed, out(), 8).shards;

    std::vector<double> one, two, batch, in_net, raw;
    for (int r = 0; r < repeats; ++r) {  // 1 thread, raw inference at its batch, 2 threads
      const SelfPlayRun a = timedSelfPlay(sc, model, 1, each, seed, out());
      one.push_back(a.positions_per_second);
      batch.push_back(a.batch);
      in_net.push_back(a.evals_in_net);
      raw.push_back(
          rawInferenceRate(*net, *sc, std::max(1, static_cast<int>(a.batch + 0.5)), each, seed));
      const SelfPlayRun b = timedSelfPlay(sc, model, 2, each, seed, out());
      two.push_back(b.positions_per_second);
    }

    // The writer alone, on the rows of the warm-up games, written again and again.
    std::vector<training::GameData> games;
    for (const std::string& shard : shards) {
      training::ShardContents contents = training::readShard(shard, true);
      for (training::GameData& g : contents.games) games.push_back(std::move(g));
    }
    std::vector<double> rows_per_second, bytes_per_row;
    if (!games.empty()) {
      const training::RowEncoder encoder(*sc);
      training::ShardInfo info;
      info.scenario = sc->name();
      info.shape = encoder.shape();
      for (int r = 0; r < repeats; ++r) {
        const fs::path write_dir = dir / ("write-" + std::to_string(r));
        training::ShardWriter writer(write_dir.string(), "bench", info, 4096);
        int64_t rows = 0;
        const auto t0 = Clock::now();
        while (since(t0) < each) {
          for (const training::GameData& g : games) {
            writer.write(g);
            rows += g.rows;
          }
        }
        writer.close();
        rows_per_second.push_back(static_cast<double>(rows) / since(t0));
        int64_t bytes = 0;
        for (const auto& e : fs::directory_iterator(write_dir))
          bytes += static_cast<int64_t>(fs::file_size(e.path()));
        bytes_per_row.push_back(static_cast<double>(bytes) / static_cast<double>(rows));
      }
    }

    std::cout << "\n"
              << spreadHeader(name) << "\n"
              << spreadRow("positions/s, 1 thread", one, 1) << "\n"
              << spreadRow("positions/s, 2 threads", two, 1) << "\n"
              << spreadRow("  speed-up", roundRatios(two, one), 2) << "\n"
              << spreadRow("mean network batch, 1 thread", batch, 1) << "\n"
              << spreadRow("evaluator evals/s in net, 1 thread", in_net, 0) << "\n"
              << spreadRow("raw inference evals/s at that batch", raw, 0) << "\n"
              << spreadRow("  evaluator / raw", roundRatios(in_net, raw), 2) << "\n";
    if (!games.empty()) {
      std::cout << spreadRow("HDF5 writer rows/s (self-play rows)", rows_per_second, 0) << "\n"
                << spreadRow("  bytes a row on disk", bytes_per_row, 0) << "\n"
                << spreadRow("  over 2-thread self-play", roundRatios(rows_per_second, two), 0)
                << "\n";
    }
  }
  fs::remove_all(dir);
  std::cout
      << "\npositions/s: recorded positions per second of wall time (games in progress "
         "included), the\nsame 32 games on 1 and 2 threads; speed-up: 2 threads over 1 in the same "
         "round; evaluator\nevals/s in net: network evaluations per second of time inside the "
         "batch evaluator\n(encoding, forward pass, softmax), against raw forward passes at the "
         "same batch measured\nright after it (at most 1.00); the HDF5 writer rewrites the rows "
         "of 8 whole games.\n";
  return 0;
}

}  // namespace morne::cli
