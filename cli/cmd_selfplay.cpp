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
#include "cli/interrupt.h"
#include "cli/number_text.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "env/error.h"
#include "env/scenario_library.h"
#include "training/selfplay.h"

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

}  // namespace

int runSelfplay(const Args& args) {
  po::options_description own("Options of `morne selfplay`");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // clang-format off
  own.add_options()
      ("scenario", po::value<std::string>()->default_value(env::kDefaultScenario),
       "built-in scenario name or scenario file")
      ("agent", po::value<std::string>()->default_value("mcts:sims=100"),
       "agent spec playing both sides (mcts for generation 0, az:model=FILE later)")
      ("games", po::value<int>()->default_value(8), "games to play")
      ("jobs", po::value<int>()->default_value(cores), "worker threads")
      ("games-per-thread", po::value<int>()->default_value(16),
       "games a worker keeps going in lock-step, their leaves evaluated in one batch (az agents)")
      ("batch-invariant", po::value<bool>()->default_value(true),
       "pad network batches to --games-per-thread so that the data do not depend on --jobs "
       "(0: 10-25% faster, the same data only for the same --jobs)")
      ("cache", po::value<int>()->default_value(65536),
       "evaluation cache entries per worker (az agents; 0: none)")
      ("seed", po::value<uint64_t>()->default_value(1), "base seed of the dice and the agents")
      ("out", po::value<std::string>()->default_value("selfplay"), "folder of the shards")
      ("prefix", po::value<std::string>()->default_value(""),
       "shard names PREFIX-NNNN.h5 (default: scenario, time and a random suffix)")
      ("rows-per-shard", po::value<int>()->default_value(4096), "positions per shard (whole games)")
      ("temperature-moves", po::value<int>()->default_value(20),
       "first decisions of a game drawn in proportion to the search's visits")
      ("cheap-sims", po::value<int>()->default_value(0),
       "playout cap randomisation: simulations of the cheap searches (0: off)")
      ("full-probability", numberOption(0.25),
       "playout cap randomisation: share of full searches (recorded)")
      ("resign-value", numberOption(0),
       "resign when the search values the position below minus this (0: never resign)")
      ("resign-moves", po::value<int>()->default_value(3), "... for this many decisions in a row")
      ("resign-check", numberOption(0.1),
       "share of games that never resign, to measure false resignations")
      ("adjudicate-after", po::value<int>()->default_value(0),
       "stop a game after this many decisions and score it as it stands (0: never)")
      ("queue", po::value<int>()->default_value(32),
       "finished games waiting for the writer, at most")
      ("quiet", po::bool_switch(), "no progress bar");
  // clang-format on
  const ParsedCommand cmd = parseCommand("selfplay", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne selfplay [options]", own) << "\nAgents:\n"
              << agents::agentCatalog();
    return 0;
  }
  const auto& vm = cmd.vm;
  training::SelfPlayConfig c;
  c.scenario = env::loadScenario(vm["scenario"].as<std::string>());
  c.agent = vm["agent"].as<std::string>();
  c.games = vm["games"].as<int>();
  c.jobs = vm["jobs"].as<int>();
  c.seed = vm["seed"].as<uint64_t>();
  c.out_dir = vm["out"].as<std::string>();
  c.prefix = vm["prefix"].as<std::string>().empty() ? defaultPrefix(c.scenario->name())
                                                    : vm["prefix"].as<std::string>();
  c.rows_per_shard = vm["rows-per-shard"].as<int>();
  c.temperature_moves = vm["temperature-moves"].as<int>();
  c.cheap_sims = vm["cheap-sims"].as<int>();
  c.full_search_probability = vm["full-probability"].as<double>();
  c.queue_games = vm["queue"].as<int>();
  c.games_per_thread = vm["games-per-thread"].as<int>();
  c.batch_invariant = vm["batch-invariant"].as<bool>();
  const int cache = vm["cache"].as<int>();
  c.resign_value = vm["resign-value"].as<double>();
  c.resign_moves = vm["resign-moves"].as<int>();
  c.resign_check_fraction = vm["resign-check"].as<double>();
  c.adjudicate_decisions = vm["adjudicate-after"].as<int>();
  if (c.games_per_thread < 1) throw ConfigError("selfplay: --games-per-thread must be at least 1");
  if (cache < 0) throw ConfigError("selfplay: --cache must not be negative");
  c.cache_entries = static_cast<size_t>(cache);
  if (!(c.resign_value >= 0 && c.resign_value < 1))
    throw ConfigError("selfplay: --resign-value must be in [0, 1)");
  if (c.resign_moves < 1) throw ConfigError("selfplay: --resign-moves must be at least 1");
  if (!(c.resign_check_fraction >= 0 && c.resign_check_fraction <= 1))
    throw ConfigError("selfplay: --resign-check must be in [0, 1]");
  if (c.adjudicate_decisions < 0)
    throw ConfigError("selfplay: --adjudicate-after must not be negative");
  if (c.games < 1) throw ConfigError("selfplay: --games must be at least 1");
  if (c.jobs < 1) throw ConfigError("selfplay: --jobs must be at least 1");
  if (c.rows_per_shard < 1) throw ConfigError("selfplay: --rows-per-shard must be at least 1");
  if (c.temperature_moves < 0)
    throw ConfigError("selfplay: --temperature-moves must not be negative");
  if (c.cheap_sims < 0) throw ConfigError("selfplay: --cheap-sims must not be negative");
  if (!(c.full_search_probability > 0 && c.full_search_probability <= 1))
    throw ConfigError("selfplay: --full-probability must be in (0, 1]");
  if (c.queue_games < 1) throw ConfigError("selfplay: --queue must be at least 1");
  c.config_json = nlohmann::json{{"scenario", c.scenario->name()},
                                 {"agent", c.agent},
                                 {"games", c.games},
                                 {"jobs", c.jobs},
                                 {"seed", c.seed},
                                 {"rows_per_shard", c.rows_per_shard},
                                 {"temperature_moves", c.temperature_moves},
                                 {"cheap_sims", c.cheap_sims},
                                 {"full_probability", c.full_search_probability},
                                 {"games_per_thread", c.games_per_thread},
                                 {"batch_invariant", c.batch_invariant},
                                 {"resign_value", c.resign_value},
                                 {"resign_moves", c.resign_moves},
                                 {"resign_check", c.resign_check_fraction},
                                 {"adjudicate_after", c.adjudicate_decisions}}
                      .dump();
  c.engine = versionLine();

  std::cout << versionLine() << "\nselfplay: " << c.games << " games of " << c.agent << " on "
            << c.scenario->name() << ", " << c.jobs << " at a time, seed " << c.seed << "; shards "
            << c.out_dir << "/" << c.prefix << "-NNNN.h5\n"
            << std::flush;
  Progress progress(c.games, "games", !vm["quiet"].as<bool>());
  progress.update(0);
  const InterruptFlag interrupt;
  const training::SelfPlayResult r = training::runSelfPlay(
      c,
      [&](const training::SelfPlayProgress& p) {
        std::string note = fixedText(p.games_done / p.seconds, 2) + " games/s, " +
                           fixedText(static_cast<double>(p.positions) / p.seconds, 1) +
                           " positions/s";
        if (p.batches > 0) {
          note += ", batch " +
                  fixedText(static_cast<double>(p.evaluated) / static_cast<double>(p.batches), 1);
        }
        progress.update(p.games_done, note);
      },
      interrupt.flag());
  // The handlers stay until the summary is printed: a signal now still ends with status 130.
  const training::SelfPlayProgress& p = r.progress;
  std::cout << (r.interrupted ? "interrupted: " : "") << p.games_done << " games, " << p.positions
            << " positions recorded (" << p.decisions << " decisions) in "
            << fixedText(p.seconds, 2)
            << " s: " << fixedText(static_cast<double>(p.positions) / p.seconds, 1)
            << " positions/s\n";
  if (p.batches > 0) {
    std::cout << "evaluations: " << p.evaluated << " positions in " << p.batches
              << " batches (average batch "
              << fixedText(static_cast<double>(p.evaluated) / static_cast<double>(p.batches), 1)
              << "), cache answered " << p.cache_hits << " of " << p.leaves << " leaves; "
              << fixedText(static_cast<double>(p.evaluated) / p.evaluator_seconds, 0)
              << " evaluations/s inside the network calls, "
              << fixedText(static_cast<double>(p.evaluated) / p.seconds, 0)
              << " per second of wall time\n";
  }
  if (c.resign_value > 0 || c.adjudicate_decisions > 0) {
    std::cout << "endings: " << p.resigned << " resigned, " << p.adjudicated << " adjudicated; "
              << p.resign_checks << " no-resignation game(s) where a side would have resigned, "
              << p.false_resignations << " of them wrongly\n";
  }
  for (const training::RecoveredShard& j : r.recovered) {
    std::cout << "recovered " << j.games << " finished game(s), " << j.rows
              << " positions, of a killed run from " << j.journal;
    if (!j.shard.empty()) std::cout << " into " << j.shard;
    if (j.dropped_bytes) std::cout << " (a last record cut short: " << j.dropped_bytes << " bytes)";
    std::cout << "\n";
  }
  for (const std::string& shard : r.shards) std::cout << "wrote " << shard << "\n";
  std::cout << std::flush;
  return r.interrupted || interrupt.raised() ? 130 : 0;
}

}  // namespace morne::cli
