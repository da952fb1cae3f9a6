// `morne arena`: a round robin between agent specs on one or more scenarios (duplicate matches,
// games in parallel), with a live progress bar, result tables, Elo ratings and report files.
// No finished game is lost: games.csv takes each game as it ends, Ctrl-C or SIGTERM writes the
// reports of the games finished so far, `--resume` plays the rest of a run, and an output
// folder with results is never overwritten without `--force`. `morne arena rate` recomputes the
// ratings of saved runs.

#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "agents/agent_kinds.h"
#include "arena/arena.h"
#include "arena/arena_folder.h"
#include "arena/report.h"
#include "arena/results.h"
#include "arena/stats.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "core/interrupt.h"
#include "core/number_text.h"
#include "core/progress.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/scenario_library.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;

// Splits on whitespace, and also on commas when `commas` is set, but not inside single or
// double quotes, which are dropped ("rule 'ext:cmd=python3 bot.py'" is two items).
std::vector<std::string> splitList(const std::string& text, bool commas) {
  std::vector<std::string> out;
  std::string item;
  char quote = 0;
  for (char c : text + " ") {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        item += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ' ' || c == '\t' || (commas && c == ',')) {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  if (quote) throw ConfigError(std::string("a quote (") + quote + ") is not closed in: " + text);
  return out;
}

// The time the games left will take: each game's scenario's mean time per game so far (the
// mean of all games for a scenario not seen yet), over the games played at once.
double etaSeconds(const std::vector<arena::ArenaGame>& games, int jobs) {
  std::map<int, std::pair<double, int>> per_scenario;  // seconds, games
  double all = 0;
  int played = 0;
  for (const arena::ArenaGame& g : games) {
    if (!g.played || g.seconds <= 0) continue;
    auto& [seconds, count] = per_scenario[g.scenario];
    seconds += g.seconds;
    ++count;
    all += g.seconds;
    ++played;
  }
  if (played == 0) return -1;
  double left = 0;
  for (const arena::ArenaGame& g : games) {
    if (g.played) continue;
    const auto it = per_scenario.find(g.scenario);
    left += it != per_scenario.end() ? it->second.first / it->second.second : all / played;
  }
  return left / jobs;
}

int runArenaRate(const Args& args) {
  po::options_description own("Options of `morne arena rate`");
  // clang-format off
  own.add_options()
      ("out", po::value<std::string>()->default_value(""),
       "folder for ratings.csv, pairs.csv, summary.json, elo.svg (\"\": print only)")
      ("anchor", po::value<std::string>()->default_value(""),
       "the agent spec rated 0, the others relative to it (default: the first agent of the "
       "first file)")
      ("force", po::bool_switch(), "replace reports already in --out");
  // clang-format on
  const ParsedCommand cmd = parseCommand("arena rate", args, own, -1);
  if (cmd.help || cmd.positional.empty()) {
    std::cout << usageText("morne arena rate [options] GAMES.csv...", own)
              << "\nRecomputes the tables and ratings of finished games from the games.csv files "
                 "of one or\nmore arena runs (merged: agents and scenarios are matched by spec "
                 "and name).\n";
    return cmd.help ? 0 : 2;
  }
  arena::SavedGames saved;
  for (const std::string& path : cmd.positional) arena::readGamesCsv(path, saved);
  if (saved.games.empty()) throw ConfigError("arena rate: the files hold no finished game");
  if (saved.lineup.agents.size() < 2)
    throw ConfigError("arena rate: the games name one agent only");
  if (const std::string anchor = cmd.vm["anchor"].as<std::string>(); !anchor.empty())
    arena::anchorOn(anchor, saved);
  if (cmd.positional.size() == 1) saved.lineup.rounds = 0;  // rounds and seed are not in games.csv
  std::cout << "arena rate: " << saved.games.size() << " games of " << saved.lineup.agents.size()
            << " agents on " << saved.lineup.scenarios.size() << " scenario(s) from "
            << cmd.positional.size() << " file(s)\n";
  const std::vector<arena::ArenaStats> scopes = arena::arenaScopes(saved.lineup, saved.games);
  for (const arena::ArenaStats& st : scopes) arena::printArenaStats(std::cout, saved.lineup, st);
  const std::string out_dir = cmd.vm["out"].as<std::string>();
  if (!out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) throw IoError("arena rate: cannot create folder " + out_dir + ": " + ec.message());
    for (const char* name : {"ratings.csv", "pairs.csv", "summary.json", "elo.svg"}) {
      if (fs::exists(fs::path(out_dir) / name, ec) && !cmd.vm["force"].as<bool>()) {
        throw ConfigError("arena rate: " + out_dir + " already holds " + name +
                          "; give --force to replace the reports, or another --out");
      }
    }
    arena::writeArenaReports(out_dir, saved.lineup, scopes);
    std::cout << "reports: " << out_dir << "/{ratings.csv,pairs.csv,summary.json,elo.svg}\n";
  }
  return 0;
}

}  // namespace

int runArena(const Args& args) {
  if (!args.empty() && args[0] == "rate") return runArenaRate(Args(args.begin() + 1, args.end()));
  po::options_description own("Options of `morne arena`");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // clang-format off
  own.add_options()
      ("agents", po::value<std::string>()->default_value("rule random"),
       "agent specs separated by spaces, at least two (quote the list; quote a spec with "
       "spaces inside it: \"rule 'ext:cmd=python3 bot.py'\")")
      ("scenarios", po::value<std::string>()->default_value(env::kDefaultScenario),
       "built-in scenario names or files, separated by commas or spaces")
      ("rounds", po::value<int>()->default_value(10),
       "duplicate rounds per pair and scenario; each is two games, sides swapped, same dice")
      ("seed", po::value<uint64_t>()->default_value(1), "base seed of the dice and agents")
      ("jobs", po::value<int>()->default_value(cores),
       "games played at once (give multi-threaded agents fewer: jobs x threads <= cores)")
      ("out", po::value<std::string>()->default_value("arena-results"),
       "folder for games.csv, run.json and the reports (\"\" for none)")
      ("resume", po::bool_switch(),
       "continue the run saved in --out: its agents, scenarios and seed, skipping the games in "
       "its games.csv (a larger --rounds extends it)")
      ("force", po::bool_switch(), "start over in an --out that holds results, deleting them")
      ("records", po::bool_switch(),
       "also write each game's record (docs/protocol.md, \"Game records\") to "
       "--out/records/game-N.json, N its \"game\" column in games.csv (a resumed run keeps "
       "writing them)")
      ("quiet", po::bool_switch(), "no progress bar");
  // clang-format on
  const ParsedCommand cmd = parseCommand("arena", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne arena [options]", own)
              << "\n       morne arena rate [--out DIR] GAMES.csv...   ratings of saved runs\n"
              << "\nAgents:\n"
              << agents::agentCatalog();
    return 0;
  }
  const auto& vm = cmd.vm;
  const std::string out_dir = vm["out"].as<std::string>();
  const bool resume = vm["resume"].as<bool>();
  if (resume && vm["force"].as<bool>())
    throw ConfigError("arena: give --resume or --force, not both");
  if (resume && out_dir.empty()) throw ConfigError("arena: --resume needs the run's --out folder");

  arena::GivenRun given{{splitList(vm["agents"].as<std::string>(), false),
                         splitList(vm["scenarios"].as<std::string>(), true), vm["rounds"].as<int>(),
                         vm["seed"].as<uint64_t>(), vm["records"].as<bool>()},
                        !vm["agents"].defaulted(),
                        !vm["scenarios"].defaulted(),
                        !vm["rounds"].defaulted(),
                        !vm["seed"].defaulted()};
  const arena::ArenaRunFile run = resume ? arena::resumedRun(out_dir, given) : given.run;

  arena::ArenaConfig config;
  config.agents = run.agents;
  if (config.agents.size() < 2) throw ConfigError("arena: --agents needs at least two agent specs");
  for (const std::string& name : run.scenarios) config.scenarios.push_back(env::loadScenario(name));
  if (config.scenarios.empty()) throw ConfigError("arena: --scenarios names no scenario");
  config.rounds = run.rounds;
  if (config.rounds < 1) throw ConfigError("arena: --rounds must be at least 1");
  config.seed = run.seed;
  config.jobs = vm["jobs"].as<int>();
  if (config.jobs < 1) throw ConfigError("arena: --jobs must be at least 1");
  config.keep_plies = run.records;
  if (config.keep_plies && out_dir.empty())
    throw ConfigError("arena: --records writes into the --out folder; give one");
  for (const std::string& spec : config.agents)
    agents::makeAgent(spec, 0);  // check before any output
  const arena::ArenaLineup lineup = arena::lineupOf(config);
  std::vector<arena::ArenaGame> games = arena::scheduleArena(config);

  std::optional<arena::ArenaFolder> folder;
  if (!out_dir.empty()) {
    const arena::FolderUse use = resume                   ? arena::FolderUse::kResume
                                 : vm["force"].as<bool>() ? arena::FolderUse::kReplace
                                                          : arena::FolderUse::kNew;
    folder.emplace(out_dir, run, use, lineup, games);
  }
  const int resumed = folder ? folder->resumed() : 0;

  std::cout << core::versionLine() << "\narena: " << config.agents.size() << " agents, "
            << config.scenarios.size() << " scenario(s), " << config.rounds
            << " rounds: " << games.size() << " games, " << config.jobs << " at a time, seed "
            << config.seed;
  if (resume) std::cout << "; resuming with " << resumed << " games already played";
  std::cout << "\n";
  core::Progress progress(static_cast<int>(games.size()), "games", !vm["quiet"].as<bool>());
  progress.update(resumed);
  const core::InterruptFlag interrupt;
  arena::runArena(
      config, games,
      [&](const arena::ArenaGame& g, int finished) {
        if (folder) folder->addGame(config, g);
        progress.update(finished, "", etaSeconds(games, config.jobs));
      },
      interrupt.flag());

  int played = 0;
  for (const arena::ArenaGame& g : games) played += g.played;
  const std::vector<std::string> errors = arena::arenaErrors(config, games);
  for (const std::string& line : errors) std::cerr << "morne: arena: " << line << "\n";
  const bool interrupted =
      played + static_cast<int>(errors.size()) < static_cast<int>(games.size());
  if (!errors.empty()) {
    std::cout << errors.size() << " game(s) ended with an error (above) and stay unplayed"
              << (out_dir.empty()
                      ? ""
                      : "; `morne arena --resume --out " + out_dir + "` tries them again")
              << "\n";
  }
  if (interrupted) {
    std::cout << "interrupted: " << played << " of " << games.size()
              << " games finished; the tables and reports below cover them"
              << (out_dir.empty() ? ""
                                  : "; `morne arena --resume --out " + out_dir + "` plays the rest")
              << "\n";
  }
  const std::vector<arena::ArenaStats> scopes = arena::arenaScopes(lineup, games);
  for (const arena::ArenaStats& st : scopes) arena::printArenaStats(std::cout, lineup, st);
  if (folder) {
    folder->finish(scopes);
    std::cout << "reports: " << out_dir
              << "/{games.csv,run.json,ratings.csv,pairs.csv,summary.json,elo.svg}\n";
  }
  return interrupted ? 130 : errors.empty() ? 0 : 1;
}

}  // namespace morne::cli
