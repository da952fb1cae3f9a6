// `morne bench scale`: what running a learning run's roles as processes costs on this machine
// (docs/scale-out.md), against threads in one process, in interleaved rounds
// (cli/bench/bench_stats.h):
//
//   self-play   positions/s of `morne loop worker` processes playing the run's default agent
//               (az:sims=32,gumbel=1) with a fresh default network: 1 process of `threads`
//               threads (the baseline), then 1, 2 and 4 processes of 1 thread each;
//   learner     samples/s of `morne loop train`: 1 rank of 1 and of `threads` LibTorch
//               threads, then 2 ranks of 1 thread each (a data-parallel learner over Gloo,
//               meeting through a file store).
//
// Every process is the real binary in a scratch run folder, so start-up (LibTorch, the
// network) is part of each self-play figure; the learner's is measured between its first and
// last metrics rows.

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli/bench/bench.h"
#include "cli/bench/bench_stats.h"
#include "cli/child_process.h"
#include "cli/commands.h"
#include "cli/openmp_policy.h"
#include "core/number_text.h"
#include "core/version.h"
#include "env/error.h"
#include "loop/run_folder.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kLearnerSteps = 120;
constexpr int kMetricsEvery = 20;

// Runs `morne ARGS` to its end; throws when it fails.
void runToEnd(const std::vector<std::string>& args, const std::string& log) {
  const int status = waitForChild(startMorne(args, log));
  if (!exitedCleanly(status)) {
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    throw Error("bench scale: `morne " + args.at(1) + " " + args.at(2) + "` ended with " +
                exitText(status) + ":\n" + text.str());
  }
}

// Self-play positions per second of `processes` workers of `threads` threads each, over
// `seconds` from their start to their stop.
double selfplayRate(const loop::RunFolder& run, int processes, int threads, double seconds,
                    int round) {
  std::vector<std::string> names;
  std::vector<pid_t> pids;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < processes; ++k) {
    names.push_back("bench-" + std::to_string(round) + "-" + std::to_string(processes) + "x" +
                    std::to_string(threads) + "-" + std::to_string(k));
    pids.push_back(startMorne({"morne", "loop", "worker", run.dir(), "--worker", names.back(),
                               "--jobs", std::to_string(threads), "--quiet"},
                              run.path(names.back() + ".txt")));
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  for (const pid_t pid : pids) ::kill(pid, SIGINT);
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int64_t positions = 0;
  for (size_t k = 0; k < pids.size(); ++k) {
    waitForChild(pids[k]);
    const json totals =
        loop::readJsonFile(run.path("workers/" + names[k] + ".json"), json::object());
    positions += totals.value("positions_played", int64_t{0});
  }
  return static_cast<double>(positions) / elapsed;
}

// Learner samples per second of `ranks` ranks of `threads` LibTorch threads: the training of
// generation 1 from scratch, between its first and last metrics rows.
double learnerRate(const loop::RunFolder& run, int ranks, int threads, int round) {
  for (const char* file : {"train/learner.json", "train/checkpoint.pt", "train/net.pt",
                           "train/metrics.csv", "train/gen-001.json"})
    fs::remove(run.path(file));
  const std::string store = run.path("store-" + std::to_string(round) + "-" +
                                     std::to_string(ranks) + "x" + std::to_string(threads));
  std::vector<pid_t> pids;
  for (int r = 0; r < ranks; ++r) {
    std::vector<std::string> args = {
        "morne", "loop", "train", run.dir(), "--threads", std::to_string(threads), "--quiet"};
    if (ranks > 1) {
      for (const std::string& a :
           {std::string("--rank"), std::to_string(r), std::string("--ranks"), std::to_string(ranks),
            std::string("--group"), "file://" + store})
        args.push_back(a);
    }
    pids.push_back(startMorne(args, run.path("learner-" + std::to_string(r) + ".txt")));
  }
  for (const pid_t pid : pids) {
    const int status = waitForChild(pid);
    if (!exitedCleanly(status))
      throw Error("bench scale: a learner ended with " + exitText(status) + " (" + run.dir() + ")");
  }
  // metrics.csv: step, samples, seconds, ...
  std::ifstream in(run.path("train/metrics.csv"));
  std::string line;
  std::getline(in, line);
  std::vector<std::pair<double, double>> rows;  // samples, seconds
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string step, samples, seconds;
    std::getline(fields, step, ',');
    std::getline(fields, samples, ',');
    std::getline(fields, seconds, ',');
    rows.emplace_back(std::stod(samples), std::stod(seconds));
  }
  if (rows.size() < 2) throw Error("bench scale: the learner wrote no metrics (" + run.dir() + ")");
  return (rows.back().first - rows.front().first) / (rows.back().second - rows.front().second);
}

}  // namespace

int benchScale(const BenchConfig& bench) {
  const std::string scenario = bench.scenarios.empty() ? "duel" : bench.scenarios.front();
  const int threads = std::max(2, bench.threads);
  requirePassiveOpenMp();  // the processes inherit it
  const fs::path dir =
      fs::temp_directory_path() / ("morne-bench-scale-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const loop::RunFolder run((dir / "run").string());
  std::cout << core::versionLine() << "\nbench scale: " << scenario
            << ", self-play az:sims=32,gumbel=1 with a fresh default network, learner batch 256; "
            << core::fixedText(bench.seconds, 1) << " s of self-play and " << kLearnerSteps
            << " learner steps per measurement, " << bench.repeats << " interleaved rounds; "
            << loadText() << "\n"
            << std::flush;
  try {
    // The run: one generation, its data set 0 begun by a quick bootstrap (enough for the
    // learner), then a fresh network published as the one the workers play data set 0 with.
    fs::create_directories(dir);
    runToEnd({"morne",
              "loop",
              "init",
              "--out",
              run.dir(),
              "--scenario",
              scenario,
              "--generations",
              "1",
              "--bootstrap",
              "mcts:sims=50",
              "--bootstrap-games",
              "64",
              "--steps",
              std::to_string(kLearnerSteps),
              "--max-reuse",
              "0",
              "--metrics-every",
              std::to_string(kMetricsEvery),
              "--checkpoint-every",
              "100000",
              "--validation",
              "0",
              "--calibration-rows",
              "0",
              "--batch",
              "256"},
             (dir / "init.txt").string());
    runToEnd({"morne", "loop", "worker", run.dir(), "--worker", "bootstrap", "--max-games", "64",
              "--jobs", "2", "--quiet"},
             (dir / "bootstrap.txt").string());
    runToEnd({"morne", "nn", "init", "--scenario", scenario, "--out", run.path("nets/gen-001.pt")},
             (dir / "net.txt").string());
    loop::LatestNetwork latest;
    latest.data_set = 0;
    latest.network = "nets/gen-001.pt";
    latest.network_generation = 1;
    loop::RunFolder::measureNetwork(run.path(latest.network), latest);
    run.writeLatest(latest);

    int round = 0;
    const std::vector<std::pair<int, int>> workers = {{1, threads}, {1, 1}, {2, 1}, {4, 1}};
    std::vector<std::function<double()>> configs;
    for (const auto& [processes, threads_each] : workers)
      configs.push_back([&, p = processes, t = threads_each] {
        return selfplayRate(run, p, t, bench.seconds, ++round);
      });
    const std::vector<std::pair<int, int>> learners = {{1, threads}, {1, 1}, {2, 1}};
    for (const auto& [ranks, threads_each] : learners)
      configs.push_back(
          [&, r = ranks, t = threads_each] { return learnerRate(run, r, t, ++round); });
    const auto m = measureInterleaved(bench.repeats, configs);

    std::cout << "\n" << spreadHeader("self-play, positions/s") << "\n";
    for (size_t k = 0; k < workers.size(); ++k) {
      const std::string label = std::to_string(workers[k].first) + " process(es) x " +
                                std::to_string(workers[k].second) + " thread(s)" +
                                (k == 0 ? " (baseline)" : "");
      std::cout << spreadRow(label, m[k], 0) << "\n";
      if (k > 0) std::cout << spreadRow("  / baseline", roundRatios(m[k], m[0]), 2) << "\n";
    }
    const size_t l0 = workers.size();
    std::cout << "\n" << spreadHeader("learner, samples/s") << "\n";
    for (size_t k = 0; k < learners.size(); ++k) {
      const std::string label = std::to_string(learners[k].first) + " rank(s) x " +
                                std::to_string(learners[k].second) + " thread(s)" +
                                (k == 0 ? " (baseline)" : "");
      std::cout << spreadRow(label, m[l0 + k], 0) << "\n";
      if (k > 0) std::cout << spreadRow("  / baseline", roundRatios(m[l0 + k], m[l0]), 2) << "\n";
    }
  } catch (...) {
    std::cerr << "bench scale: the scratch run is kept in " << dir.string() << "\n";
    throw;
  }
  fs::remove_all(dir);
  std::cout << "\nself-play: positions played (finished games or not) per second of wall time "
               "from the\nprocesses' start to their stop, start-up included. learner: samples "
               "per second between\nits first and last metrics rows (each rank trains on half "
               "of each batch of 256).\n";
  return 0;
}

}  // namespace morne::cli
