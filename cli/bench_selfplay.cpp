// `morne bench selfplay`: what self-play achieves with the default network (random weights):
// positions/s on 1 and 2 worker threads, the batching evaluator's evaluations/s against raw
// inference at the same batch size, and the HDF5 writer's rows/s against the self-play rate.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "agents/network.h"
#include "agents/observation.h"
#include "agents/policy_layout.h"
#include "cli/bench.h"
#include "cli/commands.h"
#include "env/error.h"
#include "env/rules.h"
#include "env/scenario_library.h"
#include "training/selfplay.h"
#include "training/shard_reader.h"
#include "training/shard_writer.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Raw forward passes of `net` at `batch` for `seconds`, over observations of a random game.
double rawEvalsPerSecond(agents::Network& net, const env::Scenario& sc, int batch, double seconds, uint64_t seed) {
  const agents::ObservationEncoder encoder(sc);
  const agents::NetworkConfig& c = net.config();
  std::vector<float> planes, globals;
  std::vector<float> p(static_cast<size_t>(c.input.planeSize())), g(static_cast<size_t>(c.input.globals));
  env::Rng rng(seed);
  env::ActionList scratch;
  env::GameState s = env::newGame(sc);
  for (int i = 0; i < batch; ++i) {
    if (s.isTerminal()) s = env::newGame(sc);
    encoder.encode(s, p, g);
    planes.insert(planes.end(), p.begin(), p.end());
    globals.insert(globals.end(), g.begin(), g.end());
    env::playRandomPly(s, rng, scratch);
  }
  std::vector<float> logits(static_cast<size_t>(batch) * static_cast<size_t>(c.policySize())), values(static_cast<size_t>(batch));
  net.evaluate(batch, planes, globals, logits, values);  // warm-up
  long evals = 0;
  const auto t0 = Clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    net.evaluate(batch, planes, globals, logits, values);
    evals += batch;
    elapsed = since(t0);
  }
  return static_cast<double>(evals) / elapsed;
}

}  // namespace

int benchSelfplay(const po::variables_map& vm) {
  std::vector<std::string> names = vm["scenario"].as<std::vector<std::string>>();
  if (names.empty()) names = {"duel"};
  const double seconds = vm["seconds"].as<double>();
  const int max_threads = std::min(2, vm["threads"].as<int>());
  if (seconds <= 0) throw ConfigError("--seconds must be positive");
  constexpr int kSims = 32, kGamesPerThread = 16;
  const fs::path dir = fs::temp_directory_path() / ("morne-bench-selfplay-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::cout << versionLine() << "\nbench selfplay: default network (random weights), az sims=" << kSims << ", "
            << kGamesPerThread << " lock-step games per worker thread, one LibTorch thread per worker\n\n";
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    agents::NetworkConfig nc;
    nc.input = agents::ObservationEncoder(*sc).shape();
    nc.policy_planes = agents::PolicyLayout(*sc).planes();
    nc.scenario = sc->name();
    const std::string model = (dir / (name + ".pt")).string();
    const auto net = agents::Network::create(nc, 1);
    net->save(model);

    std::printf("%-10s %7s %6s %9s %12s %10s %14s %14s\n", "scenario", "threads", "games", "avg batch",
                "positions/s", "speed-up", "evals/s in net", "evals/s wall");
    double base_rate = 0, one_thread_batch = 0, one_thread_net = 0;
    std::string shard;
    for (int threads = 1; threads <= max_threads; ++threads) {
      training::SelfPlayConfig c;
      c.scenario = sc;
      c.agent = "az:model=" + model + ",sims=" + std::to_string(kSims);
      c.jobs = threads;
      c.games_per_thread = kGamesPerThread;
      c.games = threads * kGamesPerThread;
      c.seed = vm["seed"].as<uint64_t>();
      c.out_dir = (dir / ("t" + std::to_string(threads))).string();
      c.prefix = "bench";
      const training::SelfPlayResult r = training::runSelfPlay(c, nullptr, nullptr);
      const training::SelfPlayProgress& p = r.progress;
      const double rate = static_cast<double>(p.positions) / p.seconds;
      const double batch = static_cast<double>(p.evaluated) / static_cast<double>(std::max<int64_t>(1, p.batches));
      const double in_net = static_cast<double>(p.evaluated) / p.evaluator_seconds * threads;
      if (threads == 1) {
        base_rate = rate;
        one_thread_batch = batch;
        one_thread_net = in_net;
        if (!r.shards.empty()) shard = r.shards[0];
      }
      std::printf("%-10s %7d %6d %9.1f %12.0f %9.2fx %14.0f %14.0f\n", name.c_str(), threads, c.games, batch, rate,
                  rate / base_rate, in_net, static_cast<double>(p.evaluated) / p.seconds);
    }

    const int batch = std::max(1, static_cast<int>(one_thread_batch + 0.5));
    agents::configureTorchRuntime(1);
    const double raw = rawEvalsPerSecond(*net, *sc, batch, seconds, vm["seed"].as<uint64_t>());
    std::printf("\n%-10s raw inference at batch %d: %.0f evals/s; the batching evaluator inside self-play (1 thread): "
                "%.0f = %.0f%% of raw\n",
                name.c_str(), batch, raw, one_thread_net, 100 * one_thread_net / raw);

    // The writer alone: the games of the 1-thread run written again and again.
    if (!shard.empty()) {
      const training::ShardContents games = training::readShard(shard, true);
      training::ShardInfo info;
      info.scenario = games.scenario;
      info.shape = games.shape;
      training::ShardWriter writer((dir / "write").string(), "bench", info, 4096);
      int64_t rows = 0;
      const auto t0 = Clock::now();
      double elapsed = 0;
      while (elapsed < seconds) {
        for (const training::GameData& g : games.games) {
          writer.write(g);
          rows += g.rows;
        }
        elapsed = since(t0);
      }
      writer.close();
      elapsed = since(t0);
      std::printf("%-10s HDF5 writer: %.0f rows/s (chunked, gzip), %.0fx the 1-thread self-play rate\n", name.c_str(),
                  static_cast<double>(rows) / elapsed, static_cast<double>(rows) / elapsed / base_rate);
    }
    std::cout << "\n";
  }
  fs::remove_all(dir);
  std::cout << "positions/s: recorded positions per second of wall time; speed-up against 1 thread in the\n"
               "same run; evals/s in net: network evaluations per second of time spent in the batch evaluator\n"
               "(encoding, forward pass, softmax), summed over threads; evals/s wall: per second of wall time.\n";
  return 0;
}

}  // namespace morne::cli
