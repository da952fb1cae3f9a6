// `morne bench selfplay`: what self-play achieves with the default network (random weights):
// positions/s on 1 and 2 worker threads, the batching evaluator's evaluations/s against raw
// inference at the same batch size, and the HDF5 writer's rows/s against the self-play rate.
// The agent uses the Gumbel root: with PUCT and its first-play reduction an untrained network
// ends every phase at once, and such games are no measure of real self-play.

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "agents/network.h"
#include "agents/observation.h"
#include "agents/policy_layout.h"
#include "cli/bench.h"
#include "cli/commands.h"
#include "env/error.h"
#include "env/rules.h"
#include "env/scenario_library.h"
#include "training/row_encoder.h"
#include "training/selfplay.h"
#include "training/shard_writer.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Rows like self-play's, from random games: real observations and legal masks, a policy target
// spread over up to 16 legal actions. About `rows` rows, in games.
std::vector<training::GameData> syntheticGames(const training::RowEncoder& encoder,
                                               const env::Scenario& sc, int rows, uint64_t seed) {
  env::Rng rng(seed);
  env::ActionList legal;
  std::vector<agents::ActionStat> stats;
  std::vector<training::GameData> games;
  for (int total = 0; total < rows;) {
    training::GameData g;
    g.id = games.size();
    env::GameState s = env::newGame(sc);
    while (!s.isTerminal() && g.rows < 200) {
      if (s.isChanceNode()) {
        env::applyChance(s, env::sampleChance(s, rng));
        continue;
      }
      env::legalActions(s, legal);
      stats.clear();
      for (size_t k = 0; k < std::min<size_t>(16, legal.size()); ++k)
        stats.push_back({legal[k], 0, 0, 0, 1});
      const env::Action played = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      encoder.append(s, g.rows, stats, played, g);
      g.value.push_back(rng.below(2) ? 1.0f : -1.0f);
      env::applyAction(s, played);
    }
    total += g.rows;
    games.push_back(std::move(g));
  }
  return games;
}

}  // namespace

int benchSelfplay(const po::variables_map& vm) {
  std::vector<std::string> names = vm["scenario"].as<std::vector<std::string>>();
  if (names.empty()) names = {"duel"};
  const double seconds = vm["seconds"].as<double>();
  const int max_threads = std::min(2, vm["threads"].as<int>());
  if (seconds <= 0) throw ConfigError("--seconds must be positive");
  constexpr int kSims = 32, kGamesPerThread = 16;
  const fs::path dir =
      fs::temp_directory_path() / ("morne-bench-selfplay-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::cout << versionLine()
            << "\nbench selfplay: default network (random weights), az sims=" << kSims
            << " with the Gumbel root, " << kGamesPerThread
            << " lock-step games per worker thread, one LibTorch "
            << "thread per worker, " << seconds << " s per measurement\n\n";
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    agents::NetworkConfig nc;
    nc.input = agents::ObservationEncoder(*sc).shape();
    nc.policy_planes = agents::PolicyLayout(*sc).planes();
    nc.scenario = sc->name();
    const std::string model = (dir / (name + ".pt")).string();
    const auto net = agents::Network::create(nc, 1);
    net->save(model);

    std::printf("%-10s %7s %9s %12s %10s %14s %14s\n", "scenario", "threads", "avg batch",
                "positions/s", "speed-up", "evals/s in net", "evals/s wall");
    double base_rate = 0, two_thread_rate = 0, one_thread_batch = 0, one_thread_net = 0;
    for (int threads = 1; threads <= max_threads; ++threads) {
      training::SelfPlayConfig c;
      c.scenario = sc;
      c.agent = "az:model=" + model + ",sims=" + std::to_string(kSims) + ",gumbel=1";
      c.jobs = threads;
      c.games_per_thread = kGamesPerThread;
      c.games = 1'000'000;  // stopped after `seconds`
      c.seed = vm["seed"].as<uint64_t>();
      c.out_dir = (dir / ("t" + std::to_string(threads))).string();
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
      const double rate = static_cast<double>(p.positions_played) / p.seconds;
      const double batch =
          static_cast<double>(p.evaluated) / static_cast<double>(std::max<int64_t>(1, p.batches));
      const double in_net = static_cast<double>(p.evaluated) / p.evaluator_seconds * threads;
      if (threads == 1) {
        base_rate = rate;
        one_thread_batch = batch;
        one_thread_net = in_net;
      }
      two_thread_rate = rate;
      std::printf("%-10s %7d %9.1f %12.1f %9.2fx %14.0f %14.0f\n", name.c_str(), threads, batch,
                  rate, rate / base_rate, in_net, static_cast<double>(p.evaluated) / p.seconds);
    }

    const int batch = std::max(1, static_cast<int>(one_thread_batch + 0.5));
    agents::configureTorchRuntime(1);
    const double raw = rawInferenceRate(*net, *sc, batch, seconds, vm["seed"].as<uint64_t>());
    std::printf(
        "%-10s raw inference at batch %d: %.0f evals/s; the batching evaluator inside self-play (1 "
        "thread): "
        "%.0f = %.0f%% of raw\n",
        name.c_str(), batch, raw, one_thread_net, 100 * one_thread_net / raw);

    // The writer alone, on rows like self-play's, written again and again.
    const training::RowEncoder encoder(*sc);
    const std::vector<training::GameData> games =
        syntheticGames(encoder, *sc, 512, vm["seed"].as<uint64_t>());
    training::ShardInfo info;
    info.scenario = sc->name();
    info.shape = encoder.shape();
    training::ShardWriter writer((dir / "write").string(), "bench", info, 4096);
    int64_t rows = 0;
    const auto t0 = Clock::now();
    while (since(t0) < seconds) {
      for (const training::GameData& g : games) {
        writer.write(g);
        rows += g.rows;
      }
    }
    writer.close();
    const double written = static_cast<double>(rows) / since(t0);
    int64_t bytes = 0;
    for (const auto& e : fs::directory_iterator(dir / "write"))
      bytes += static_cast<int64_t>(fs::file_size(e.path()));
    std::printf(
        "%-10s HDF5 writer: %.0f rows/s, %.0f bytes a row on disk; %.0fx the 2-thread self-play "
        "rate\n",
        name.c_str(), written, static_cast<double>(bytes) / static_cast<double>(rows),
        written / two_thread_rate);
    std::cout << "\n";
  }
  fs::remove_all(dir);
  std::cout
      << "positions/s: recorded positions per second of wall time (games in progress included);\n"
         "speed-up: against 1 thread in the same run; evals/s in net: network evaluations per "
         "second of\n"
         "time inside the batch evaluator (encoding, forward pass, softmax), summed over threads;\n"
         "evals/s wall: per second of wall time. The HDF5 writer runs alone on rows like "
         "self-play's\n"
         "(real observations and masks, policy targets over up to 16 actions).\n";
  return 0;
}

}  // namespace morne::cli
