// `morne bench train`: the learner's training throughput (nn/learner.h) against plain LibTorch
// training at the same batch and thread count, on rows of random positions of each scenario
// with a one-hot target on a random legal action, in interleaved rounds (cli/bench/bench_stats.h);
// and the shard reader's rows/s against the learner's.

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <vector>

#include "cli/bench/bench.h"
#include "cli/bench/bench_stats.h"
#include "cli/commands.h"
#include "cli/openmp_policy.h"
#include "core/number_text.h"
#include "core/version.h"
#include "env/io/scenario_library.h"
#include "nn/learner.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"
#include "nn/random_rows.h"
#include "training/shard_writer.h"
#include "training/training_data.h"

namespace morne::cli {

namespace {

constexpr int kBatch = 128;

// Writes `shards` shards of `rows` rows into `dir`, games of 64 rows cut from `rows_source`.
void writeBenchShards(const std::string& dir, const env::Scenario& sc,
                      const nn::TrainingBatch& source, int shards, int rows) {
  training::ShardInfo info;
  info.scenario = sc.name();
  info.encoder_version = nn::kEncoderVersion;
  const nn::ObservationShape in = nn::ObservationEncoder(sc).shape();
  info.shape = {in.planes, in.height, in.width, in.globals, nn::PolicyLayout(sc).size()};
  training::ShardWriter writer(dir, "bench", info, rows);
  const int game_rows = 64;
  for (int g = 0; g < shards * rows / game_rows; ++g) {
    training::GameData game;
    game.id = static_cast<uint64_t>(g);
    game.seed = static_cast<uint64_t>(g);
    game.rows = game_rows;
    nn::TrainingBatch part;
    for (int r = 0; r < game_rows; ++r)
      training::appendRow(source, (g * game_rows + r) % source.size, part);
    game.planes = std::move(part.planes);
    game.globals = std::move(part.globals);
    game.policy = std::move(part.policy);
    game.legal = std::move(part.legal);
    game.value = std::move(part.value);
    game.move.assign(game_rows, 0);
    game.phase.assign(game_rows, 2);
    game.side.assign(game_rows, 0);
    writer.write(game);
  }
  writer.close();
}

// Rows per second that a training stream over the shards of `dir` delivers in batches of
// kBatch when nothing else runs, over `seconds`.
double readerRate(const std::string& dir, double seconds) {
  training::TrainingStream stream(training::indexShards({dir}, 0), training::DataConfig{}, 1, {});
  stream.next(kBatch);  // the first fill
  return unitsPerSecond(seconds, [&] { return int64_t{stream.next(kBatch).size}; });
}

}  // namespace

int benchTrain(const BenchConfig& bench) {
  std::vector<std::string> names = bench.scenarios;
  if (names.empty()) names = {"duel", "crossing"};
  const int max_threads = std::min(bench.threads, 2);
  if (max_threads > 1) requirePassiveOpenMp();
  const double each = bench.seconds / bench.repeats / (2.0 * max_threads);
  const nn::LearnerConfig config;
  std::cout << core::versionLine() << "\nbench train: default network ("
            << nn::NetworkConfig{}.blocks << " blocks x " << nn::NetworkConfig{}.channels
            << " channels), batch " << kBatch
            << ", SGD with momentum; the learner's steps against plain LibTorch training of "
               "the same batch; "
            << core::fixedText(bench.seconds, 2) << " s per scenario in " << bench.repeats
            << " interleaved rounds; OpenMP wait policy " << openMpPolicyText() << "; "
            << loadText() << "\n";
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    const nn::NetworkConfig c = nn::networkConfigFor(*sc);
    const nn::TrainingBatch batch = nn::randomTrainingRows(*sc, kBatch, bench.seed);
    auto learner = nn::Learner::create(c, 1, config);
    std::vector<std::function<double()>> configs;
    for (int threads = 1; threads <= max_threads; threads *= 2) {
      configs.push_back([&, threads] {
        nn::configureTorchRuntime(threads);
        learner->step(batch);  // warm-up
        return unitsPerSecond(each, [&] {
          learner->step(batch);
          return int64_t{batch.size};
        });
      });
      configs.push_back([&, threads] {
        nn::configureTorchRuntime(threads);
        return nn::rawTrainingRate(c, batch, config, each);
      });
    }
    const std::string shards = (std::filesystem::temp_directory_path() /
                                ("morne-bench-train-" + std::to_string(::getpid())))
                                   .string();
    writeBenchShards(shards, *sc, nn::randomTrainingRows(*sc, 512, bench.seed + 1), 4, 4096);
    configs.push_back([&] { return readerRate(shards, each); });
    const auto m = measureInterleaved(bench.repeats, configs);
    std::filesystem::remove_all(shards);
    nn::configureTorchRuntime(1);
    std::cout << "\n" << spreadHeader(name + ", rows/s") << "\n";
    for (int k = 0, threads = 1; threads <= max_threads; threads *= 2, k += 2) {
      const std::string t = std::to_string(threads) + " thread(s)";
      const auto learner_rate = m[static_cast<size_t>(k)], raw = m[static_cast<size_t>(k + 1)];
      std::cout << spreadRow("learner, " + t, learner_rate, 0) << "\n"
                << spreadRow("plain LibTorch, " + t, raw, 0) << "\n"
                << spreadRow("  learner / plain", roundRatios(learner_rate, raw), 2) << "\n";
    }
    const auto& reader = m.back();
    std::cout << spreadRow("shard reader (its own thread)", reader, 0) << "\n"
              << spreadRow("  reader / learner, 1 thread", roundRatios(reader, m[0]), 2) << "\n";
  }
  std::cout << "\nrows/s: training rows per second of wall time (forward, losses, backward,\n"
               "clipping, optimizer step); the learner also converts each batch to tensors and\n"
               "reports its losses and agreements. Goal: learner / plain at least 0.90.\n"
               "shard reader: rows/s that the training stream (training/training_data.h)\n"
               "delivers from 4 shards of 4096 rows on disk (blocks of 64 rows drawn at random,\n"
               "decompressed, shuffled in fills of 4096) when nothing else runs. Goal: reader /\n"
               "learner at least 5, so that reading is never the bottleneck.\n";
  return 0;
}

}  // namespace morne::cli
