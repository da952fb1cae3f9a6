// `morne bench env|mcts|nn|selfplay` (mcts, nn, selfplay: cli/bench_*.cpp). env: the engine's
// speed on each scenario, single-threaded: state size, copy time against a memcpy of the same size
// measured in the same run, legal-action generation time, and random-playout throughput
// (legal-action generation included).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include "cli/bench.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "env/error.h"
#include "env/rules.h"
#include "env/scenario_library.h"

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

// Nanoseconds per copy, by assignment and by memcpy, over the same source and targets.
void copyTimes(const std::vector<env::GameState>& src, double& assign_ns, double& memcpy_ns) {
  constexpr size_t kTargets = 8;
  constexpr uint64_t kCopies = 4'000'000;
  std::vector<env::GameState> dst(kTargets);
  const size_t n = src.size();
  for (int round = 0; round < 2; ++round) {  // the first round warms the caches
    auto t0 = Clock::now();
    for (uint64_t i = 0; i < kCopies; ++i) {
      dst[i % kTargets] = src[i % n];
      clobber(&dst[i % kTargets]);
    }
    assign_ns = secondsSince(t0) * 1e9 / kCopies;
    t0 = Clock::now();
    for (uint64_t i = 0; i < kCopies; ++i) {
      std::memcpy(static_cast<void*>(&dst[i % kTargets]), &src[i % n], sizeof(env::GameState));
      clobber(&dst[i % kTargets]);
    }
    memcpy_ns = secondsSince(t0) * 1e9 / kCopies;
  }
}

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

int benchEnv(const po::variables_map& vm) {
  std::vector<std::string> names = vm["scenario"].as<std::vector<std::string>>();
  if (names.empty()) {
    for (const env::BuiltinScenario& b : env::builtinScenarios()) names.push_back(b.name);
  }
  const double budget = vm["seconds"].as<double>();
  if (budget <= 0) throw ConfigError("--seconds must be positive");
  std::cout << versionLine() << "\nbench env: one thread, " << budget
            << " s of random playouts per scenario; sizeof(GameState) = " << sizeof(env::GameState)
            << " bytes\n\n";
  std::printf("%-10s %8s %8s %6s %9s %7s %12s %12s %10s %9s %8s %9s\n", "scenario", "copy ns",
              "memcpy", "ratio", "legal ns", "legal", "med/p90/max", "actions/s", "plies/s",
              "games/s", "LOS ns", "direct ns");
  for (const std::string& name : names) {
    const auto sc = env::loadScenario(name);
    std::vector<env::GameState> samples;
    randomPlayouts(*sc, std::min(0.3, budget), vm["seed"].as<uint64_t>(), &samples);  // warm-up
    double assign_ns = 0;
    double memcpy_ns = 0;
    copyTimes(samples, assign_ns, memcpy_ns);
    double avg_actions = 0;
    const double legal = legalNs(samples, avg_actions);
    const PlayoutStats st = randomPlayouts(*sc, budget, vm["seed"].as<uint64_t>() + 1, nullptr);
    double los_ns = 0;
    double direct_ns = 0;
    losTimes(*sc, los_ns, direct_ns);
    std::printf("%-10s %8.1f %8.1f %6.2f %9.1f %7.1f %12s %12.0f %10.0f %9.1f %8.2f %9.0f\n",
                name.c_str(), assign_ns, memcpy_ns, assign_ns / memcpy_ns, legal, avg_actions,
                legalSpread(samples).c_str(), static_cast<double>(st.decisions) / st.seconds,
                static_cast<double>(st.decisions + st.chance) / st.seconds,
                static_cast<double>(st.games) / st.seconds, los_ns, direct_ns);
  }
  std::cout << "\ncopy: GameState assignment vs memcpy of the same bytes (ratio 1.00 = as fast);\n"
               "legal: legalActions() per call on positions sampled from random games, with the\n"
               "mean, median, 90th percentile and maximum number of legal actions;\n"
               "actions/s: random-playout decisions per second\n"
               "(legal-action generation included), plies/s adds chance outcomes;\n"
               "LOS: a line-of-sight query from the precomputed table, and the direct exact\n"
               "computation it replaces (pairs within the longest artillery range).\n";
  return 0;
}

}  // namespace

int runBench(const Args& args) {
  po::options_description own("Options of `morne bench env|mcts|nn|selfplay`");
  // clang-format off
  own.add_options()
      ("scenario", po::value<std::vector<std::string>>()->default_value({}, "all built-in")
                       ->composing(),
       "scenario to measure (repeatable)")
      ("seconds", po::value<double>()->default_value(3.0),
       "measuring time per scenario (env: random playouts; mcts: per thread count)")
      ("seed", po::value<uint64_t>()->default_value(1), "seed of the games measured")
      ("threads", po::value<int>()->default_value(2),
       "mcts, nn: thread counts 1, 2, 4 .. up to this; selfplay: 1, 2");
  // clang-format on
  const ParsedCommand cmd = parseCommand("bench", args, own, 1);
  if (cmd.help || cmd.positional.empty()) {
    std::cout << usageText("morne bench env|mcts|nn|selfplay [options]", own);
    return cmd.help ? 0 : 1;
  }
  if (cmd.positional[0] == "env") return benchEnv(cmd.vm);
  if (cmd.positional[0] == "mcts") return benchMcts(cmd.vm);
  if (cmd.positional[0] == "nn") return benchNn(cmd.vm);
  if (cmd.positional[0] == "selfplay") return benchSelfplay(cmd.vm);
  throw ConfigError("bench: unknown target \"" + cmd.positional[0] +
                    "\" (available: env, mcts, nn, selfplay)");
}

}  // namespace morne::cli
