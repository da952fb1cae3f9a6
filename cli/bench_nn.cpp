// `morne bench nn`: raw inference throughput of the default network (agents/network.h) by
// batch size, on 1 and 2 intra-op threads, over observations of real positions.

#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include "agents/network.h"
#include "agents/observation.h"
#include "agents/policy_layout.h"
#include "cli/bench.h"
#include "cli/commands.h"
#include "env/error.h"
#include "env/rules.h"
#include "env/scenario_library.h"

namespace morne::cli {

double rawInferenceRate(agents::Network& net, const env::Scenario& sc, int batch, double seconds,
                        uint64_t seed) {
  // Observations of the positions of random games, one per batch entry.
  const agents::ObservationEncoder encoder(sc);
  const agents::NetworkConfig& c = net.config();
  std::vector<float> planes, globals;
  std::vector<float> p(static_cast<size_t>(c.input.planeSize()));
  std::vector<float> g(static_cast<size_t>(c.input.globals));
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
  std::vector<float> logits(static_cast<size_t>(batch) * static_cast<size_t>(c.policySize()));
  std::vector<float> values(static_cast<size_t>(batch));
  net.evaluate(batch, planes, globals, logits, values);  // warm-up
  long evals = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    net.evaluate(batch, planes, globals, logits, values);
    evals += batch;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return static_cast<double>(evals) / elapsed;
}

int benchNn(const po::variables_map& vm) {
  std::vector<std::string> names = vm["scenario"].as<std::vector<std::string>>();
  if (names.empty()) names = {"crossing"};
  const double budget = vm["seconds"].as<double>();
  const int max_threads = vm["threads"].as<int>();
  if (budget <= 0) throw ConfigError("--seconds must be positive");
  std::cout << versionLine() << "\nbench nn: default network (" << agents::NetworkConfig{}.blocks
            << " blocks x " << agents::NetworkConfig{}.channels << " channels), random weights, "
            << budget << " s per batch size and thread count\n\n";
  std::printf("%-10s %10s %7s %6s %12s\n", "scenario", "parameters", "threads", "batch", "evals/s");
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    const agents::ObservationEncoder encoder(*sc);
    agents::NetworkConfig c;
    c.input = encoder.shape();
    c.policy_planes = agents::PolicyLayout(*sc).planes();
    c.scenario = sc->name();
    const auto net = agents::Network::create(c, 1);
    for (int threads = 1; threads <= max_threads; threads *= 2) {
      agents::configureTorchRuntime(threads);
      for (int batch : {1, 8, 32, 128}) {
        const double rate = rawInferenceRate(*net, *sc, batch, budget, vm["seed"].as<uint64_t>());
        std::printf("%-10s %10lld %7d %6d %12.0f\n", name.c_str(),
                    static_cast<long long>(net->parameters()), threads, batch, rate);
      }
    }
    agents::configureTorchRuntime(1);
  }
  std::cout
      << "\nevals/s: positions evaluated per second by one forward pass per batch (LibTorch CPU,\n"
         "inference mode, OpenBLAS with one thread of its own, malloc tuned: docs/agents.md).\n";
  return 0;
}

}  // namespace morne::cli
