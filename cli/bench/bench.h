#pragma once
// The targets of `morne bench` (cli/cmd_bench.cpp dispatches): each takes the shared bench
// settings and prints a table.

#include <cstdint>
#include <string>
#include <vector>

#include "env/scenario.h"
#include "nn/network.h"

namespace morne::cli {

// The settings of `morne bench` (its options, declared once in cli/cmd_bench.cpp).
struct BenchConfig {
  std::vector<std::string> scenarios;  // empty: the target's own choice
  double seconds = 3;                  // measuring time per scenario (and configuration)
  uint64_t seed = 1;                   // seed of the games measured
  int threads = 2;                     // mcts, nn: thread counts 1, 2, 4 .. up to this
  int repeats = 5;                     // interleaved measurements of each configuration
};

// `morne bench env`: state copies, legal actions, random playouts, line of sight
// (cli/cmd_bench.cpp).
int benchEnv(const BenchConfig& bench);

// `morne bench mcts`: simulations per second on 1..threads threads (cli/bench/bench_mcts.cpp).
int benchMcts(const BenchConfig& bench);

// `morne bench nn`: network inference throughput by batch size and thread count
// (cli/bench/bench_nn.cpp).
int benchNn(const BenchConfig& bench);

// Raw inference: evaluations per second of `net` at `batch` over `seconds`, on observations of
// random positions of `sc` (cli/bench/bench_nn.cpp; LibTorch threads as configured).
double rawInferenceRate(nn::Network& net, const env::Scenario& sc, int batch, double seconds,
                        uint64_t seed);

// `morne bench train`: the learner's rows/s against plain LibTorch training at the same batch
// and threads (cli/bench/bench_train.cpp).
int benchTrain(const BenchConfig& bench);

// `morne bench selfplay`: self-play positions/s on 1 and 2 threads, batching evaluator against
// raw inference, HDF5 writer throughput (cli/bench/bench_selfplay.cpp).
int benchSelfplay(const BenchConfig& bench);

// `morne bench scale`: self-play positions/s of 1, 2 and 4 worker processes against threads
// in one, and learner samples/s of 1 and 2 ranks (cli/bench/bench_scale.cpp).
int benchScale(const BenchConfig& bench);

}  // namespace morne::cli
