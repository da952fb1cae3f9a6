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
#include "arena/arena_run.h"
#include "arena/report.h"
#include "arena/results.h"
#include "arena/stats.h"
#include "cli/arena_printer.h"
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
  if (vm["resume"].as<bool>() && vm["force"].as<bool>())
    throw ConfigError("arena: give --resume or --force, not both");
  arena::ArenaRequest request;
  request.given = {{splitList(vm["agents"].as<std::string>(), false),
                    splitList(vm["scenarios"].as<std::string>(), true), vm["rounds"].as<int>(),
                    vm["seed"].as<uint64_t>(), vm["records"].as<bool>()},
                   !vm["agents"].defaulted(),
                   !vm["scenarios"].defaulted(),
                   !vm["rounds"].defaulted(),
                   !vm["seed"].defaulted()};
  request.out = vm["out"].as<std::string>();
  request.use = vm["resume"].as<bool>()  ? arena::FolderUse::kResume
                : vm["force"].as<bool>() ? arena::FolderUse::kReplace
                                         : arena::FolderUse::kNew;
  request.jobs = vm["jobs"].as<int>();
  ArenaPrinter printer(vm["quiet"].as<bool>(), request.use == arena::FolderUse::kResume);
  const core::InterruptFlag interrupt;
  const arena::ArenaRun run = arena::playArenaRun(request, printer, interrupt.flag());
  return printer.summarise(run, request.out);
}

}  // namespace morne::cli
