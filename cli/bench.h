#pragma once
// The targets of `morne bench` (cli/cmd_bench.cpp dispatches): each reads the shared bench
// options (scenario, seconds, seed, threads) and prints a table.

#include <cstdint>

#include "cli/options.h"
#include "env/scenario.h"
#include "nn/network.h"

namespace morne::cli {

// `morne bench mcts`: simulations per second on 1..threads threads (cli/bench_mcts.cpp).
int benchMcts(const po::variables_map& vm);

// `morne bench nn`: network inference throughput by batch size and thread count (cli/bench_nn.cpp).
int benchNn(const po::variables_map& vm);

// Raw inference: evaluations per second of `net` at `batch` over `seconds`, on observations of
// random positions of `sc` (cli/bench_nn.cpp; LibTorch threads as configured).
double rawInferenceRate(nn::Network& net, const env::Scenario& sc, int batch, double seconds,
                        uint64_t seed);

// `morne bench selfplay`: self-play positions/s on 1 and 2 threads, batching evaluator against
// raw inference, HDF5 writer throughput (cli/bench_selfplay.cpp).
int benchSelfplay(const po::variables_map& vm);

}  // namespace morne::cli
