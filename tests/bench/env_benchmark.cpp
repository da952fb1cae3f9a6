// Google Benchmark targets for the engine's hot paths (the `morne bench env` figures in a form
// that compares runs): state copy against memcpy, legal-action generation, random playouts.

#include <benchmark/benchmark.h>

#include <cstring>

#include "env/io/scenario_library.h"
#include "env/rules.h"

namespace {

using namespace morne;

// Positions sampled from random games of a scenario.
std::vector<env::GameState> samplePositions(const env::Scenario& sc, size_t count) {
  std::vector<env::GameState> out;
  env::Rng rng(1);
  env::ActionList legal;
  while (out.size() < count) {
    env::GameState s = env::newGame(sc);
    while (!s.isTerminal() && out.size() < count) {
      if (!s.isChanceNode() && (rng.next() & 3) == 0) out.push_back(s);
      env::playRandomPly(s, rng, legal);
    }
  }
  return out;
}

const env::Scenario& scenario(int index) {
  static const auto kAll = [] {
    std::vector<std::shared_ptr<const env::Scenario>> v;
    for (const char* name : {"duel", "crossing", "pyramids"}) v.push_back(env::loadScenario(name));
    return v;
  }();
  return *kAll[static_cast<size_t>(index)];
}

void BM_CopyState(benchmark::State& st) {
  const auto src = samplePositions(scenario(1), 64);
  env::GameState dst;
  size_t i = 0;
  for (auto _ : st) {
    dst = src[i++ & 63];
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_CopyState);

void BM_MemcpyState(benchmark::State& st) {
  const auto src = samplePositions(scenario(1), 64);
  env::GameState dst;
  size_t i = 0;
  for (auto _ : st) {
    std::memcpy(static_cast<void*>(&dst), &src[i++ & 63], sizeof dst);
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_MemcpyState);

void BM_LegalActions(benchmark::State& st) {
  const auto positions = samplePositions(scenario(static_cast<int>(st.range(0))), 256);
  env::ActionList legal;
  size_t i = 0;
  for (auto _ : st) {
    env::legalActions(positions[i++ & 255], legal);
    benchmark::DoNotOptimize(legal.size());
  }
}
BENCHMARK(BM_LegalActions)->Arg(0)->Arg(1)->Arg(2);

void BM_RandomGame(benchmark::State& st) {
  const env::Scenario& sc = scenario(static_cast<int>(st.range(0)));
  env::Rng rng(7);
  env::ActionList legal;
  int64_t actions = 0;
  for (auto _ : st) {
    env::GameState s = env::newGame(sc);
    while (!s.isTerminal()) {
      actions += !s.isChanceNode();
      env::playRandomPly(s, rng, legal);
    }
  }
  st.counters["actions/s"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RandomGame)->Arg(0)->Arg(1)->Arg(2);

}  // namespace

BENCHMARK_MAIN();
