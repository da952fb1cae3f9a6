// `morne perft`: counts legal action sequences (chance outcomes as branches) for depths 1..N,
// or per first ply with --divide, from a scenario's start or from a saved state.

#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "env/error.h"
#include "env/io/notation.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/perft.h"
#include "env/rules.h"

namespace morne::cli {

namespace {

env::GameState startState(const env::Scenario& sc, const std::string& state_file) {
  if (state_file.empty()) return env::newGame(sc);
  return env::loadStateFile(sc, state_file);
}

}  // namespace

int runPerft(const Args& args) {
  po::options_description own("Options of `morne perft`");
  // clang-format off
  own.add_options()
      ("scenario", po::value<std::string>()->default_value("duel"),
       "built-in scenario name or scenario file")
      ("depth", po::value<int>()->default_value(4), "number of plies (1..12)")
      ("divide", po::bool_switch(), "print the count under each first ply at --depth")
      ("state", po::value<std::string>()->default_value(""),
       "start from this saved state (JSON, as `state` of the engine protocol)");
  // clang-format on
  const ParsedCommand cmd = parseCommand("perft", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne perft [options]", own);
    return 0;
  }
  const int depth = cmd.vm["depth"].as<int>();
  if (depth < 1 || depth > 12) throw ConfigError("--depth must be within 1..12");
  const auto sc = env::loadScenario(cmd.vm["scenario"].as<std::string>());
  const env::GameState s = startState(*sc, cmd.vm["state"].as<std::string>());

  if (cmd.vm["divide"].as<bool>()) {
    uint64_t total = 0;
    for (const env::PerftBranch& b : env::perftDivide(s, depth)) {
      const std::string first =
          b.action ? env::actionText(s, *b.action) : "outcome " + std::to_string(b.outcome);
      std::printf("%-24s %llu\n", first.c_str(), static_cast<unsigned long long>(b.count));
      total += b.count;
    }
    std::printf("total %llu\n", static_cast<unsigned long long>(total));
    return 0;
  }
  std::printf("perft %s from %s\n", sc->name().c_str(),
              cmd.vm["state"].as<std::string>().empty() ? "the start" : "the saved state");
  for (int d = 1; d <= depth; ++d) {
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t n = env::perft(s, d);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("depth %2d  %14llu  %8.3f s  %10.0f leaves/s\n", d,
                static_cast<unsigned long long>(n), sec,
                sec > 0 ? static_cast<double>(n) / sec : 0.0);
  }
  return 0;
}

}  // namespace morne::cli
