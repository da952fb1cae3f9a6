// `morne bench nn`: raw inference throughput of the default network (nn/network.h) by
// batch size, on 1 and 2 intra-op threads, over observations of real positions.

#include <cstdio>
#include <functional>
#include <iostream>
#include <vector>

#include "cli/bench/bench.h"
#include "cli/bench/bench_stats.h"
#include "cli/commands.h"
#include "cli/openmp_policy.h"
#include "core/number_text.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "nn/cpu_features.h"
#include "nn/network.h"
#include "nn/observation.h"

namespace morne::cli {

double rawInferenceRate(nn::Network& net, const env::Scenario& sc, int batch, double seconds,
                        uint64_t seed) {
  // Observations of the positions of random games, one per batch entry.
  const nn::ObservationEncoder encoder(sc);
  const nn::NetworkConfig& c = net.config();
  const nn::ObservationShape shape = encoder.shape();
  std::vector<float> planes, globals;
  std::vector<float> p(static_cast<size_t>(shape.planeSize()));
  std::vector<float> g(static_cast<size_t>(shape.globals));
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
  std::vector<float> logits(static_cast<size_t>(batch) *
                            static_cast<size_t>(c.policySize(shape.height, shape.width)));
  std::vector<float> values(static_cast<size_t>(batch));
  net.evaluate(batch, shape, planes, globals, logits, values);  // warm-up
  return unitsPerSecond(seconds, [&] {
    net.evaluate(batch, shape, planes, globals, logits, values);
    return int64_t{batch};
  });
}

int benchNn(const BenchConfig& bench) {
  std::vector<std::string> names = bench.scenarios;
  if (names.empty()) names = {"crossing"};
  const double budget = bench.seconds;
  const int max_threads = bench.threads;
  const int repeats = bench.repeats;
  if (max_threads > 1) requirePassiveOpenMp();
  const std::vector<int> batches = {1, 8, 32, 128};
  const bool bf16 = nn::cpuHasBFloat16();
  int counts = bf16 ? 1 : 0;  // the bf16 rows: one thread
  for (int threads = 1; threads <= max_threads; threads *= 2) ++counts;
  const double each = budget / repeats / (counts * static_cast<double>(batches.size()));
  std::cout << core::versionLine() << "\nbench nn: default network (" << nn::NetworkConfig{}.blocks
            << " blocks x " << nn::NetworkConfig{}.channels << " channels), random weights, "
            << core::fixedText(budget, 2) << " s per scenario in " << repeats
            << " interleaved rounds; OpenMP wait policy " << openMpPolicyText() << "; "
            << loadText() << "\n";
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    const nn::NetworkConfig c = nn::networkConfigFor(*sc);
    const auto net = nn::Network::create(c, 1);
    // The same weights in bfloat16 (az:...,precision=bf16), only where the CPU has it.
    const auto half = bf16 ? nn::Network::create(c, 1) : nullptr;
    if (half) half->useBFloat16();
    std::vector<std::function<double()>> configs;
    std::vector<std::string> labels;
    for (int threads = 1; threads <= max_threads; threads *= 2) {
      for (int batch : batches) {
        labels.push_back(std::to_string(threads) + " thread(s), batch " + std::to_string(batch));
        configs.push_back([&, threads, batch] {
          nn::configureTorchRuntime(threads);
          return rawInferenceRate(*net, *sc, batch, each, bench.seed);
        });
      }
    }
    const size_t fp32_configs = configs.size();
    for (int batch : bf16 ? batches : std::vector<int>{}) {
      labels.push_back("1 thread, batch " + std::to_string(batch) + ", bf16");
      configs.push_back([&, batch] {
        nn::configureTorchRuntime(1);
        return rawInferenceRate(*half, *sc, batch, each, bench.seed);
      });
    }
    const auto m = measureInterleaved(repeats, configs);
    nn::configureTorchRuntime(1);
    std::cout << "\n"
              << spreadHeader(name + " (" + std::to_string(net->parameters()) +
                              " parameters), evals/s")
              << "\n";
    for (size_t k = 0; k < configs.size(); ++k) {
      std::cout << spreadRow(labels[k], m[k], 0) << "\n";
      if (k >= fp32_configs) {
        std::cout << spreadRow("  over fp32", roundRatios(m[k], m[k - fp32_configs]), 2) << "\n";
      } else if (k >= batches.size()) {
        std::cout << spreadRow("  over 1 thread", roundRatios(m[k], m[k % batches.size()]), 2)
                  << "\n";
      }
    }
  }
  std::cout
      << "\nevals/s: positions evaluated per second by one forward pass per batch (LibTorch CPU,\n"
         "inference mode, OpenBLAS with one thread of its own, malloc tuned: docs/agents.md).\n"
      << (bf16 ? "bf16: the same network in bfloat16 (az:...,precision=bf16).\n"
               : "bf16: not measured, this CPU has no AVX-512 BF16.\n");
  return 0;
}

}  // namespace morne::cli
