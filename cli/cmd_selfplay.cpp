// `morne selfplay`: games of an agent against itself, many at once, every searched position
// written to HDF5 shards (training/selfplay.h, docs/training-data.md). Ctrl-C stops cleanly:
// finished games are written and the open shard is completed.

#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "agents/agent_kinds.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "core/interrupt.h"
#include "core/number_text.h"
#include "core/progress.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "training/position_archive.h"
#include "training/selfplay.h"
#include "training/selfplay_options.h"

namespace morne::cli {

namespace {

// SCENARIO-YYYYMMDD-HHMMSS-XXXX: a timestamp and a random suffix, so runs never collide.
std::string defaultPrefix(const std::string& scenario) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  char suffix[8];
  std::snprintf(suffix, sizeof suffix, "%04x",
                static_cast<unsigned>(std::random_device{}() & 0xffff));
  return scenario + "-" + stamp + "-" + suffix;
}

// The options of `morne selfplay` that say what is played and where it goes, one row each
// (cli/option_table.h); how games are played is training/selfplay_options.h. --scenario and --quiet
// are read apart (a scenario is loaded, quiet is not part of the run).
const env::OptionRow<training::SelfPlayConfig> kOptions[] = {
    {"agent", &training::SelfPlayConfig::agent, env::anyValue(),
     "agent spec playing both sides (mcts for generation 0, az:model=FILE later)"},
    {"games", &training::SelfPlayConfig::games, env::atLeast(1), "games to play"},
    {"jobs", &training::SelfPlayConfig::jobs, env::atLeast(1), "worker threads"},
    {"seed", &training::SelfPlayConfig::seed, env::anyValue(),
     "base seed of the dice and the agents"},
    {"out", &training::SelfPlayConfig::out_dir, env::anyValue(), "folder of the shards", false},
    {"prefix", &training::SelfPlayConfig::prefix, env::anyValue(),
     "shard names PREFIX-NNNN.h5 (default: scenario, time and a random suffix)", false},
    {"rows-per-shard", &training::SelfPlayConfig::rows_per_shard, env::atLeast(1),
     "positions per shard (whole games)"},
    {"queue", &training::SelfPlayConfig::queue_games, env::atLeast(1),
     "finished games waiting for the writer, at most", false},
};

}  // namespace

int runSelfplay(const Args& args) {
  training::SelfPlayConfig c;
  c.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  po::options_description own("Options of `morne selfplay`");
  own.add_options()("scenario", po::value<std::string>()->default_value(env::kDefaultScenario),
                    "built-in scenario name or scenario file");
  addOptions<training::SelfPlayConfig>(own, kOptions, c);
  addOptions<training::SelfPlayConfig>(own, training::selfplayPlayRows(), c);
  own.add_options()("starts", po::value<std::vector<std::string>>()->multitoken(),
                    "folders whose position archives (--archive) the --start-share of the games "
                    "start from, oldest first")("quiet", po::bool_switch(), "no progress bar");
  const ParsedCommand cmd = parseCommand("selfplay", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne selfplay [options]", own) << "\nAgents:\n"
              << agents::agentCatalog();
    return 0;
  }
  const auto& vm = cmd.vm;
  readOptions<training::SelfPlayConfig>("selfplay", vm, kOptions, c);
  readOptions<training::SelfPlayConfig>("selfplay", vm, training::selfplayPlayRows(), c);
  c.scenario = env::loadScenario(vm["scenario"].as<std::string>());
  if (c.prefix.empty()) c.prefix = defaultPrefix(c.scenario->name());
  if (c.start_share > 0 && !vm.count("starts"))
    throw ConfigError("selfplay: --start-share needs --starts DIR (folders of position archives)");
  if (vm.count("starts")) {
    training::ArchivedPositions starts = training::readPositionArchives(
        *c.scenario, vm["starts"].as<std::vector<std::string>>(), training::kMostStarts);
    for (const std::string& problem : starts.problems) std::cerr << "skipped " << problem << "\n";
    if (starts.positions.empty())
      throw ConfigError("selfplay: no usable position archive in --starts");
    std::cout << "starts: " << starts.positions.size() << " archived positions from "
              << starts.files << " archive(s), " << core::fixedText(100 * c.start_share, 0)
              << "% of the games\n";
    c.starts = std::make_shared<const std::vector<env::GameState>>(std::move(starts.positions));
  }
  nlohmann::json record = env::optionsJson<training::SelfPlayConfig>(kOptions, c);
  record.update(env::optionsJson<training::SelfPlayConfig>(training::selfplayPlayRows(), c));
  record["scenario"] = c.scenario->name();
  c.config_json = record.dump();
  c.engine = core::versionLine();

  std::cout << core::versionLine() << "\nselfplay: " << c.games << " games of " << c.agent << " on "
            << c.scenario->name() << ", " << c.jobs << " at a time, seed " << c.seed << "; shards "
            << c.out_dir << "/" << c.prefix << "-NNNN.h5\n"
            << std::flush;
  core::Progress progress(c.games, "games", !vm["quiet"].as<bool>());
  progress.update(0);
  const core::InterruptFlag interrupt;
  const training::SelfPlayResult r = training::runSelfPlay(
      c,
      [&](const training::SelfPlayProgress& p) {
        std::string note = core::fixedText(p.games_done / p.seconds, 2) + " games/s, " +
                           core::fixedText(static_cast<double>(p.positions) / p.seconds, 1) +
                           " positions/s";
        if (p.batches > 0) {
          note +=
              ", batch " +
              core::fixedText(static_cast<double>(p.evaluated) / static_cast<double>(p.batches), 1);
        }
        progress.update(p.games_done, note);
      },
      interrupt.flag());
  // The handlers stay until the summary is printed: a signal now still ends with status 130.
  const training::SelfPlayProgress& p = r.progress;
  std::cout << (r.interrupted ? "interrupted: " : "") << p.games_done << " games, " << p.positions
            << " positions recorded (" << p.decisions << " decisions) in "
            << core::fixedText(p.seconds, 2)
            << " s: " << core::fixedText(static_cast<double>(p.positions) / p.seconds, 1)
            << " positions/s\n";
  if (p.batches > 0) {
    std::cout << "evaluations: " << p.evaluated << " positions in " << p.batches
              << " batches (average batch "
              << core::fixedText(static_cast<double>(p.evaluated) / static_cast<double>(p.batches),
                                 1)
              << "), cache answered " << p.cache_hits << " of " << p.leaves << " leaves; "
              << core::fixedText(static_cast<double>(p.evaluated) / p.evaluator_seconds, 0)
              << " evaluations/s inside the network calls, "
              << core::fixedText(static_cast<double>(p.evaluated) / p.seconds, 0)
              << " per second of wall time\n";
  }
  if (c.resign_value > 0 || c.adjudicate_decisions > 0) {
    std::cout << "endings: " << p.resigned << " resigned, " << p.adjudicated << " adjudicated; "
              << p.resign_checks << " no-resignation game(s) where a side would have resigned, "
              << p.false_resignations << " of them wrongly\n";
  }
  for (const training::RecoveredShard& j : r.recovered) {
    (j.quarantined.empty() ? std::cout : std::cerr) << training::recoveryText(j) << "\n";
  }
  if (c.starts) std::cout << p.archive_starts << " games started from archived positions\n";
  for (const std::string& shard : r.shards) std::cout << "wrote " << shard << "\n";
  if (!r.archive.empty()) std::cout << "wrote " << r.archive << "\n";
  std::cout << std::flush;
  return r.interrupted || interrupt.raised() ? 130 : 0;
}

}  // namespace morne::cli
