// `morne arena`: a round robin between agent specs on one or more scenarios (duplicate matches,
// games in parallel), with a live progress bar, result tables, Elo ratings and report files.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "agents/agent_spec.h"
#include "agents/arena.h"
#include "agents/arena_stats.h"
#include "cli/arena_report.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "env/durable_file.h"
#include "env/error.h"
#include "env/scenario_library.h"

namespace morne::cli {

namespace {

// Splits on whitespace, and also on commas when `commas` is set.
std::vector<std::string> splitList(const std::string& text, bool commas) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text + " ") {
    if (c == ' ' || c == '\t' || (commas && c == ',')) {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  return out;
}

}  // namespace

int runArena(const Args& args) {
  po::options_description own("Options of `morne arena`");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // clang-format off
  own.add_options()
      ("agents", po::value<std::string>()->default_value("rule random"),
       "agent specs separated by spaces, at least two (quote the list)")
      ("scenarios", po::value<std::string>()->default_value(env::kDefaultScenario),
       "built-in scenario names or files, separated by commas or spaces")
      ("rounds", po::value<int>()->default_value(10),
       "duplicate rounds per pair and scenario; each is two games, sides swapped, same dice")
      ("seed", po::value<uint64_t>()->default_value(1), "base seed of the dice and agents")
      ("jobs", po::value<int>()->default_value(cores),
       "games played at once (give multi-threaded agents fewer: jobs x threads <= cores)")
      ("out", po::value<std::string>()->default_value("arena-results"),
       "folder for games.csv, ratings.csv, pairs.csv, summary.json, elo.svg (\"\" for none)")
      ("quiet", po::bool_switch(), "no progress bar");
  // clang-format on
  const ParsedCommand cmd = parseCommand("arena", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne arena [options]", own) << "\nAgents:\n" << agents::agentCatalog();
    return 0;
  }
  const auto& vm = cmd.vm;
  agents::ArenaConfig config;
  config.agents = splitList(vm["agents"].as<std::string>(), false);
  if (config.agents.size() < 2) throw ConfigError("arena: --agents needs at least two agent specs");
  for (const std::string& name : splitList(vm["scenarios"].as<std::string>(), true)) {
    config.scenarios.push_back(env::loadScenario(name));
  }
  if (config.scenarios.empty()) throw ConfigError("arena: --scenarios names no scenario");
  config.rounds = vm["rounds"].as<int>();
  if (config.rounds < 1) throw ConfigError("arena: --rounds must be at least 1");
  config.seed = vm["seed"].as<uint64_t>();
  config.jobs = vm["jobs"].as<int>();
  if (config.jobs < 1) throw ConfigError("arena: --jobs must be at least 1");
  for (const std::string& spec : config.agents)
    agents::makeAgent(spec, 0);  // check before any output

  const std::string out_dir = vm["out"].as<std::string>();
  // games.csv takes each game as it ends, one whole row per write: a kill or a full disk
  // leaves every finished game's row and no torn one.
  std::optional<env::AppendOnlyFile> games_csv;
  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) throw IoError("arena: cannot create folder " + out_dir + ": " + ec.message());
    games_csv.emplace((std::filesystem::path(out_dir) / "games.csv").string(), true);
    games_csv->append(gamesCsvHeader() + "\n");
  }

  std::vector<agents::ArenaGame> games = agents::scheduleArena(config);
  std::cout << versionLine() << "\narena: " << config.agents.size() << " agents, "
            << config.scenarios.size() << " scenario(s), " << config.rounds
            << " rounds: " << games.size() << " games, " << config.jobs << " at a time, seed "
            << config.seed << "\n"
            << std::flush;
  Progress progress(static_cast<int>(games.size()), "games", !vm["quiet"].as<bool>());
  progress.update(0);
  agents::runArena(config, games, [&](const agents::ArenaGame& g, int finished) {
    if (games_csv) games_csv->append(gamesCsvRow(config, g) + "\n");
    progress.update(finished);
  });

  std::vector<agents::ArenaStats> scopes;
  for (int sc = 0; sc < static_cast<int>(config.scenarios.size()); ++sc) {
    scopes.push_back(agents::arenaStats(config, games, sc));
  }
  if (config.scenarios.size() > 1) scopes.push_back(agents::arenaStats(config, games, -1));
  for (const agents::ArenaStats& st : scopes) printArenaStats(std::cout, config, st);
  if (!out_dir.empty()) {
    games_csv->sync();
    games_csv->close();
    writeArenaReports(out_dir, config, scopes);
    std::cout << "reports: " << out_dir
              << "/{games.csv,ratings.csv,pairs.csv,summary.json,elo.svg}\n";
  }
  return 0;
}

}  // namespace morne::cli
