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
    // Observations of the positions of a random game, cycled through the batches.
    std::vector<float> planes, globals;
    {
      env::Rng rng(vm["seed"].as<uint64_t>());
      env::ActionList scratch;
      env::GameState s = env::newGame(*sc);
      std::vector<float> p(static_cast<size_t>(c.input.planeSize())),
          g(static_cast<size_t>(c.input.globals));
      for (int i = 0; i < 128 && !s.isTerminal(); ++i) {
        encoder.encode(s, p, g);
        planes.insert(planes.end(), p.begin(), p.end());
        globals.insert(globals.end(), g.begin(), g.end());
        env::playRandomPly(s, rng, scratch);
      }
      while (planes.size() < 128 * p.size()) {  // short game: repeat it
        planes.insert(planes.end(), planes.begin(),
                      planes.begin() + static_cast<std::ptrdiff_t>(p.size()));
        globals.insert(globals.end(), globals.begin(),
                       globals.begin() + static_cast<std::ptrdiff_t>(g.size()));
      }
    }
    std::vector<float> logits(128 * static_cast<size_t>(c.policySize())), values(128);
    for (int threads = 1; threads <= max_threads; threads *= 2) {
      agents::configureTorchRuntime(threads);
      for (int batch : {1, 8, 32, 128}) {
        const size_t np = static_cast<size_t>(batch) * static_cast<size_t>(c.input.planeSize());
        const size_t ng = static_cast<size_t>(batch) * static_cast<size_t>(c.input.globals);
        net->evaluate(batch, std::span(planes).first(np), std::span(globals).first(ng), logits,
                      values);  // warm-up
        long evals = 0;
        const auto t0 = std::chrono::steady_clock::now();
        double elapsed = 0;
        while (elapsed < budget) {
          net->evaluate(batch, std::span(planes).first(np), std::span(globals).first(ng), logits,
                        values);
          evals += batch;
          elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        std::printf("%-10s %10lld %7d %6d %12.0f\n", name.c_str(),
                    static_cast<long long>(net->parameters()), threads, batch,
                    static_cast<double>(evals) / elapsed);
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
