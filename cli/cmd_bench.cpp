// `morne bench env|mcts|nn|selfplay|train|scale` (mcts, nn, selfplay, train: cli/bench_*.cpp). env:
// the engine's speed on each scenario, single-threaded: state copy against a memcpy of the same
// bytes (with a deliberately slower copy as a check that the benchmark can see a difference),
// legal-action generation, random-playout throughput and line-of-sight queries, each measured in
// interleaved rounds (cli/bench/bench_stats.h).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include "cli/bench/bench.h"
#include "cli/bench/bench_stats.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "core/number_text.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"

namespace morne::cli {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Keeps the compiler from dropping a store it cannot see being read.
inline void clobber(void* p) { asm volatile("" : : "g"(p) : "memory"); }

struct PlayoutStats {
  uint64_t decisions = 0;
  uint64_t chance = 0;
  uint64_t games = 0;
  double seconds = 0;
};

// Random playouts until `budget` seconds have passed (whole games only).
PlayoutStats randomPlayouts(const env::Scenario& sc, double budget, uint64_t seed,
                            std::vector<env::GameState>* samples) {
  PlayoutStats st;
  env::Rng rng(seed);
  env::ActionList legal;
  const auto t0 = Clock::now();
  while (st.games == 0 || secondsSince(t0) < budget) {
    env::GameState s = env::newGame(sc);
    while (!s.isTerminal()) {
      const bool chance = s.isChanceNode();
      ++(chance ? st.chance : st.decisions);
      if (samples && !chance && samples->size() < 4096 && (rng.next() & 7) == 0) {
        samples->push_back(s);
      }
      env::playRandomPly(s, rng, legal);
    }
    ++st.games;
  }
  st.seconds = secondsSince(t0);
  return st;
}

// The copy benchmark: copies of sampled positions into a ring of targets, the source and
// target addresses prepared beforehand (no index arithmetic in the timed loop). `kind` 0 copies
// by GameState assignment (what search does at every replayed edge), 1 by memcpy of the same
// bytes, 2 by two memcpy (a deliberately slower copy, which the benchmark must see as about
// twice memcpy: it shows the measurement can tell copies apart). Returns ns per copy. Sources
// and targets start on cache lines, so that where the heap happens to put them does not move
// the figures.
class CopyBench {
 public:
  explicit CopyBench(const std::vector<env::GameState>& src) : src_(src.size()), dst_(kTargets) {
    for (size_t i = 0; i < src.size(); ++i) src_[i].state = src[i];
    for (size_t i = 0; i < kPairs; ++i) {
      from_.push_back(&src_[i % src.size()].state);
      to_.push_back(&dst_[i % kTargets].state);
    }
  }

  double nanoseconds(int kind) {
    constexpr int kRounds = 500;
    const auto t0 = Clock::now();
    for (int r = 0; r < kRounds; ++r) {
      for (size_t i = 0; i < kPairs; ++i) {
        if (kind == 0) {
          *to_[i] = *from_[i];
        } else {
          std::memcpy(static_cast<void*>(to_[i]), from_[i], sizeof(env::GameState));
          if (kind == 2) {
            clobber(to_[i]);
            std::memcpy(static_cast<void*>(to_[i]), from_[i], sizeof(env::GameState));
          }
        }
        clobber(to_[i]);
      }
    }
    return secondsSince(t0) * 1e9 / (kRounds * static_cast<double>(kPairs));
  }

 private:
  struct alignas(64) Slot {
    env::GameState state;
  };
  static constexpr size_t kTargets = 8;
  static constexpr size_t kPairs = 4096;
  std::vector<Slot> src_, dst_;
  std::vector<const env::GameState*> from_;
  std::vector<env::GameState*> to_;
};

// Nanoseconds per line-of-sight query from the precomputed table, and per direct computation
// (F-LOS-*), over every pair of hexes within the longest range.
void losTimes(const env::Scenario& sc, double& table_ns, double& direct_ns) {
  std::vector<std::pair<env::CellId, env::CellId>> pairs;
  for (env::CellId a = 0; a < sc.numCells(); ++a) {
    for (env::CellId b = 0; b < sc.numCells(); ++b) {
      if (a != b && sc.distance(a, b) <= sc.maxRange()) pairs.emplace_back(a, b);
    }
  }
  table_ns = direct_ns = 0;
  if (pairs.empty()) return;
  uint64_t visible = 0;
  auto t0 = Clock::now();
  constexpr int kRounds = 50;
  for (int r = 0; r < kRounds; ++r) {
    for (const auto& [a, b] : pairs) visible += sc.visible(a, b);
  }
  table_ns = secondsSince(t0) * 1e9 / (kRounds * static_cast<double>(pairs.size()));
  auto terrain = [&sc](env::Hex h) { return sc.losTerrain(h); };
  t0 = Clock::now();
  for (const auto& [a, b] : pairs) {
    visible +=
        env::lineOfSight(sc.hexOf(a), sc.hexOf(b), terrain, sc.rules().los_obstacle_height).visible;
  }
  direct_ns = secondsSince(t0) * 1e9 / static_cast<double>(pairs.size());
  clobber(&visible);
}

// Median, 90th percentile and maximum number of legal actions over the sampled decisions.
std::string legalSpread(const std::vector<env::GameState>& states) {
  std::vector<size_t> counts;
  env::ActionList legal;
  for (const env::GameState& s : states) {
    env::legalActions(s, legal);
    counts.push_back(legal.size());
  }
  std::sort(counts.begin(), counts.end());
  const auto at = [&](double q) {
    return counts[static_cast<size_t>(q * static_cast<double>(counts.size() - 1))];
  };
  return std::to_string(at(0.5)) + "/" + std::to_string(at(0.9)) + "/" +
         std::to_string(counts.back());
}

double legalNs(const std::vector<env::GameState>& states, double& avg_actions) {
  env::ActionList legal;
  uint64_t calls = 0;
  uint64_t actions = 0;
  const auto t0 = Clock::now();
  while (calls < 200'000) {
    for (const env::GameState& s : states) {
      env::legalActions(s, legal);
      actions += legal.size();
      ++calls;
    }
  }
  avg_actions = static_cast<double>(actions) / static_cast<double>(calls);
  return secondsSince(t0) * 1e9 / static_cast<double>(calls);
}

}  // namespace

int benchEnv(const BenchConfig& bench) {
  std::vector<std::string> names = bench.scenarios;
  if (names.empty()) {
    for (const env::BuiltinScenario& b : env::builtinScenarios()) names.push_back(b.name);
  }
  const double budget = bench.seconds;
  const int repeats = bench.repeats;
  std::cout << core::versionLine() << "\nbench env: one thread, " << repeats
            << " interleaved rounds, " << core::fixedText(budget, 2)
            << " s of random playouts per scenario in all; sizeof(GameState) = "
            << sizeof(env::GameState) << " bytes; " << loadText() << "\n";
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    std::vector<env::GameState> samples;
    randomPlayouts(*sc, std::min(0.3, budget), bench.seed, &samples);  // warm-up
    CopyBench copies(samples);
    double avg_actions = 0;
    uint64_t round = 0;
    std::vector<double> actions_per_s, games_per_s;
    const auto m = measureInterleaved(
        repeats,
        {[&] { return copies.nanoseconds(0); }, [&] { return copies.nanoseconds(1); },
         [&] { return copies.nanoseconds(2); }, [&] { return legalNs(samples, avg_actions); },
         [&] {
           const PlayoutStats st =
               randomPlayouts(*sc, budget / repeats, bench.seed + ++round, nullptr);
           games_per_s.push_back(static_cast<double>(st.games) / st.seconds);
           return static_cast<double>(st.decisions) / st.seconds;
         },
         [&] {
           double table = 0, direct = 0;
           losTimes(*sc, table, direct);
           return table;
         }});
    std::cout << "\n"
              << spreadHeader(name) << "\n"
              << spreadRow("state copy, ns (assignment)", m[0], 1) << "\n"
              << spreadRow("memcpy of the same bytes, ns", m[1], 1) << "\n"
              << spreadRow("copy / memcpy", roundRatios(m[0], m[1]), 2) << "\n"
              << spreadRow("check: two memcpy / memcpy", roundRatios(m[2], m[1]), 2) << "\n"
              << spreadRow("legalActions, ns a call", m[3], 1) << "\n"
              << spreadRow("random playouts, actions/s", m[4], 0) << "\n"
              << spreadRow("random playouts, games/s", games_per_s, 1) << "\n"
              << spreadRow("line of sight from the table, ns", m[5], 2) << "\n"
              << "  legal actions per decision: mean " << core::fixedText(avg_actions, 1)
              << ", median/p90/max " << legalSpread(samples) << "\n";
  }
  std::cout << "\ncopy: GameState assignment and memcpy of the same bytes into a ring of 8 "
               "targets, addresses\nprepared beforehand; the check copies twice and must read "
               "about 2.0, or the benchmark\ncannot see a slower copy; legalActions on positions "
               "sampled from random games; playouts:\nrandom-playout decisions per second "
               "(legal-action generation included); line of sight:\na query of the precomputed "
               "table (pairs within the longest artillery range).\n";
  return 0;
}

namespace {

// The options of `morne bench`, one row each (cli/option_table.h); --scenario (repeatable) is
// read apart.
const env::OptionRow<BenchConfig> kOptions[] = {
    {"seconds",
     &BenchConfig::seconds,
     {0, 1e6, true, false},
     "measuring time per scenario (env: random playouts; mcts: per thread count; scale: per "
     "self-play measurement)"},
    {"seed", &BenchConfig::seed, env::anyValue(), "seed of the games measured"},
    {"threads",
     &BenchConfig::threads,
     {1, 256},
     "mcts, nn: thread counts 1, 2, 4 .. up to this; selfplay: 1, 2; scale: the threads of "
     "the baselines"},
    {"repeats",
     &BenchConfig::repeats,
     {1, 1000},
     "measurements of each configuration, interleaved; figures are median, min and max"},
};

}  // namespace

int runBench(const Args& args) {
  BenchConfig b;
  po::options_description own("Options of `morne bench env|mcts|nn|selfplay|train|scale`");
  own.add_options()(
      "scenario",
      po::value<std::vector<std::string>>()->default_value({}, "all built-in")->composing(),
      "scenario to measure (repeatable)");
  addOptions<BenchConfig>(own, kOptions, b);
  const ParsedCommand cmd = parseCommand("bench", args, own, 1);
  if (cmd.help || cmd.positional.empty()) {
    std::cout << usageText("morne bench env|mcts|nn|selfplay|train|scale [options]", own);
    return cmd.help ? 0 : 1;
  }
  readOptions<BenchConfig>("bench", cmd.vm, kOptions, b);
  b.scenarios = cmd.vm["scenario"].as<std::vector<std::string>>();
  if (cmd.positional[0] == "env") return benchEnv(b);
  if (cmd.positional[0] == "mcts") return benchMcts(b);
  if (cmd.positional[0] == "nn") return benchNn(b);
  if (cmd.positional[0] == "selfplay") return benchSelfplay(b);
  if (cmd.positional[0] == "train") return benchTrain(b);
  if (cmd.positional[0] == "scale") return benchScale(b);
  throw ConfigError("bench: unknown target \"" + cmd.positional[0] +
                    "\" (available: env, mcts, nn, selfplay, train, scale)");
}

}  // namespace morne::cli
