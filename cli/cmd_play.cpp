// `morne play`: one game between two agents, printed turn by turn, then the result.

#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "agents/agent_kinds.h"
#include "agents/game_log.h"
#include "agents/game_runner.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "core/number_text.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/game_record.h"
#include "env/io/scenario_library.h"

namespace morne::cli {

int runPlay(const Args& args) {
  po::options_description own("Options of `morne play`");
  // clang-format off
  own.add_options()
      ("scenario", po::value<std::string>()->default_value(env::kDefaultScenario),
       "built-in scenario name or scenario file")
      ("blue", po::value<std::string>()->default_value("mcts:sims=64"),
       "agent spec of the first player (the default: the budget the built-in scenarios' "
       "handicaps were measured at, configs/scenarios/README.md)")
      ("orange", po::value<std::string>()->default_value("mcts:sims=64"),
       "agent spec of the second player")
      ("seed", po::value<uint64_t>()->default_value(1), "game seed (dice and agents)")
      ("quiet", po::bool_switch(), "print only the result")
      ("show-map", po::bool_switch(), "print the map at the start of every player-turn")
      ("record", po::value<std::string>()->default_value(""),
       "write the game record (docs/protocol.md, \"Game records\") to this file; an existing "
       "file is refused")
      ("transcript", po::bool_switch(),
       "print the transcript alone, without version line or timing (the golden-file format)");
  // clang-format on
  const ParsedCommand cmd = parseCommand("play", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne play [options]", own) << "\nAgents:\n" << agents::agentCatalog();
    return 0;
  }
  const auto& vm = cmd.vm;
  const auto sc = env::loadScenario(vm["scenario"].as<std::string>());
  const uint64_t seed = vm["seed"].as<uint64_t>();
  auto blue = agents::makeAgent(vm["blue"].as<std::string>(), agents::agentSeed(seed, 0));
  auto orange = agents::makeAgent(vm["orange"].as<std::string>(), agents::agentSeed(seed, 1));
  const bool quiet = vm["quiet"].as<bool>();
  const std::string record_path = vm["record"].as<std::string>();
  std::error_code ec;
  if (!record_path.empty() && std::filesystem::exists(record_path, ec)) {
    throw ConfigError("play: " + record_path +
                      " already exists; remove it or name another --record file");
  }
  const bool transcript = vm["transcript"].as<bool>();
  if (!transcript && !quiet) {
    std::cout << core::versionLine() << "\n"
              << "scenario " << sc->name() << ": " << sc->title() << "\n"
              << "blue (" << sc->sideNames()[0] << "): " << blue->spec() << ", orange ("
              << sc->sideNames()[1] << "): " << orange->spec() << ", seed " << seed << "\n";
  }
  agents::TextGameLog log(std::cout, vm["show-map"].as<bool>());
  const auto start = std::chrono::steady_clock::now();
  const agents::GameSummary game =
      agents::playGame(*sc, *blue, *orange, seed, quiet ? nullptr : &log);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << (quiet ? "" : "\n") << "result: " << agents::resultText(*sc, game.result) << "\n";
  if (!record_path.empty()) {
    env::GameRecord record;
    record.scenario = sc;
    record.seed = seed;
    record.agents = {blue->spec(), orange->spec()};
    for (const agents::Ply& p : game.plies)
      record.plies.push_back({.chance = p.chance, .action = p.action, .outcome = p.outcome});
    env::writeFileDurably(record_path, env::recordToJson(record).dump(1) + "\n");
    if (!quiet) std::cout << "record: " << record_path << "\n";
  }
  if (!transcript && !quiet) {
    std::cout << game.plies.size() << " plies (" << game.decisions << " decisions) in "
              << core::fixedText(seconds, 2) << " s; final position hash " << std::hex
              << game.final_hash << std::dec << "\n";
    for (int side = 0; side < env::kNumSides; ++side) {
      const auto i = static_cast<size_t>(side);
      const int turns = game.player_turns[i];
      std::cout << (side == 0 ? "blue" : "orange") << " thought "
                << core::fixedText(game.decision_seconds[i], 2) << " s over " << turns
                << " player-turns ("
                << core::fixedText(turns ? game.decision_seconds[i] / turns : 0.0, 3) << " s mean, "
                << core::fixedText(game.max_turn_seconds[i], 3) << " s max per turn); "
                << game.steps[i].steps << " steps, " << game.steps[i].reversals << " reversals\n";
    }
  }
  return 0;
}

}  // namespace morne::cli
