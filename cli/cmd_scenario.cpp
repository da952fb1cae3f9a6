// `morne scenario`: validate, show and list scenarios; list the rule switches; find the
// handicap that balances a scenario (arena/scenario_balance.h); a designer's analysis of a
// scenario from games between agents (arena/scenario_analysis_run.h).

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "arena/scenario_analysis_run.h"
#include "arena/scenario_balance.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "core/interrupt.h"
#include "core/number_text.h"
#include "core/progress.h"
#include "env/error.h"
#include "env/io/ascii_map.h"
#include "env/io/scenario_handicap.h"
#include "env/io/scenario_library.h"
#include "env/rule_switches.h"
#include "env/rules.h"

namespace morne::cli {

namespace {

constexpr const char* kSynopsis =
    "morne scenario validate FILE...   check scenario files, report every problem\n"
    "       morne scenario show NAME|FILE    print the map and orders of battle\n"
    "       morne scenario list              list the built-in scenarios\n"
    "       morne scenario switches [--markdown]  list the rule switches and their defaults\n"
    "       morne scenario balance NAME|FILE [options]  find the VP handicap that makes the\n"
    "                                        sides even between equal agents\n"
    "       morne scenario analyse NAME|FILE [options]  balance, decisiveness, length, the\n"
    "                                        weight of skill, objectives and losses by turn";

// The verb's value of an option whose default depends on the verb.
template <typename T>
T verbDefault(const po::variables_map& vm, const char* name, T value) {
  return vm.count(name) ? vm[name].as<T>() : value;
}

std::string summary(const env::Scenario& sc) {
  int units[2] = {0, 0};
  for (const env::UnitInfo& u : sc.units()) ++units[u.side];
  // The rule switches the scenario changes (the variant modules among them, docs/variants.md).
  std::string rules;
  const env::RuleSwitches defaults;
  for (const env::RuleSwitchInfo& info : env::ruleSwitchTable()) {
    const int v = info.get(sc.rules());
    if (v == info.get(defaults)) continue;
    rules += std::string(rules.empty() ? "; rules: " : ", ") + info.name + " " +
             env::ruleSwitchValueText(info, v);
  }
  return sc.name() + ", " + std::to_string(sc.width()) + "x" + std::to_string(sc.height()) + ", " +
         std::to_string(sc.numCells()) + " hexes, " + std::to_string(sc.turns()) + " turns, " +
         std::to_string(units[0]) + " blue / " + std::to_string(units[1]) + " orange units" +
         (sc.balance().half_vp ? "; handicap " + env::handicapText(sc.balance().signedHalf())
                               : "") +
         rules;
}

int validate(const std::vector<std::string>& files) {
  if (files.empty()) throw ConfigError("scenario validate: name at least one scenario file");
  int bad = 0;
  for (const std::string& f : files) {
    try {
      const auto sc = env::loadScenario(f);
      std::cout << f << ": ok (" << summary(*sc) << ")\n";
    } catch (const Error& e) {
      ++bad;
      std::cout << e.what() << "\n";
    }
  }
  return bad ? 1 : 0;
}

int show(const std::string& name) {
  const auto sc = env::loadScenario(name);
  const env::GameState s = env::newGame(*sc);
  std::cout << sc->title() << " (" << summary(*sc) << ")\n";
  if (!sc->description().empty()) std::cout << sc->description() << "\n";
  if (const std::string balance = env::balanceText(*sc); !balance.empty()) {
    std::cout << balance << "\n";
  }
  std::cout << "blue: " << sc->sideNames()[0] << " (moves first), orange: " << sc->sideNames()[1]
            << "\n\n"
            << env::renderMap(s);
  return 0;
}

int switches(bool markdown) {
  if (markdown) {
    std::printf("| switch | rules | default | values | meaning |\n|---|---|---|---|---|\n");
  }
  for (const env::RuleSwitchInfo& info : env::ruleSwitchTable()) {
    std::string values;
    switch (info.kind) {
      case env::RuleSwitchInfo::Kind::kBool:
        values = markdown ? "true, false" : "true|false";
        break;
      case env::RuleSwitchInfo::Kind::kInt:
        values = std::to_string(info.min_value) + ".." + std::to_string(info.max_value);
        break;
      case env::RuleSwitchInfo::Kind::kChoice:
        for (const char* c : info.choices) {
          values += (values.empty() ? "" : (markdown ? ", " : "|")) + std::string(c);
        }
        break;
    }
    const env::RuleSwitches defaults;
    const std::string value = env::ruleSwitchValueText(info, info.get(defaults));
    if (markdown) {
      std::printf("| `%s` | %s | `%s` | %s | %s |\n", info.name, info.rule_ids, value.c_str(),
                  values.c_str(), info.help);
    } else {
      std::printf("%-34s default %-20s (%s) [%s]\n    %s\n", info.name, value.c_str(),
                  values.c_str(), info.rule_ids, info.help);
    }
  }
  return 0;
}

int balance(const std::string& scenario, const po::variables_map& vm) {
  arena::BalanceRequest r;
  r.scenario = scenario;
  r.agents = splitList(vm["agents"].as<std::string>(), false);
  r.games = verbDefault(vm, "games", 200);
  r.max_games = std::max(r.games, vm["max-games"].as<int>());
  r.max_tries = vm["max-tries"].as<int>();
  r.seed = vm["seed"].as<uint64_t>();
  r.jobs = vm["jobs"].as<int>();
  r.out = verbDefault<std::string>(vm, "out", "balance-results");
  r.force = vm["force"].as<bool>();
  const bool quiet = vm["quiet"].as<bool>();
  const core::InterruptFlag interrupt;
  std::optional<core::Progress> bar;
  const arena::BalanceOutcome out = arena::balanceScenario(
      r,
      [&](const arena::BalanceProgress& p) {
        if (!p.line.empty()) {
          std::cerr << (quiet ? "" : "\n") << p.line << "\n";
          if (p.line[0] != ' ') bar.emplace(p.total, "games", !quiet);
          return;
        }
        if (bar) bar->update(p.done);
      },
      interrupt.flag());
  std::cout << "\n" << out.verdict << "\n";
  if (!out.scenario_file.empty()) {
    std::cout << "scenario with handicap "
              << env::handicapText(out.trials[static_cast<size_t>(out.chosen)].handicap) << ": "
              << out.scenario_file << "\n";
  }
  return out.interrupted ? 130 : (out.balanced ? 0 : 3);
}

int analyse(const std::string& scenario, const po::variables_map& vm) {
  arena::AnalysisRequest r;
  r.scenario = scenario;
  if (vm.count("pair")) r.pairs = vm["pair"].as<std::vector<std::string>>();
  r.games = verbDefault(vm, "games", 40);
  r.seed = vm["seed"].as<uint64_t>();
  r.jobs = vm["jobs"].as<int>();
  r.out = verbDefault<std::string>(vm, "out", "analysis-results");
  r.force = vm["force"].as<bool>();
  const bool quiet = vm["quiet"].as<bool>();
  const core::InterruptFlag interrupt;
  std::optional<core::Progress> bar;
  const arena::AnalysisOutcome out = arena::analyseScenario(
      r,
      [&](const arena::AnalysisProgress& p) {
        if (!p.line.empty()) {
          std::cerr << (quiet ? "" : "\n") << p.line << "\n";
          if (!bar) bar.emplace(p.total, "games", !quiet);
        }
        if (bar) bar->update(p.done);
      },
      interrupt.flag());
  if (out.interrupted) {
    std::cerr << "\nstopped: the same command continues the run in " << r.out << "\n";
    return 130;
  }
  std::cout << "\n"
            << arena::analysisText(out.analysis) << "\nreports: " << r.out
            << "/report.txt, report.json, report.svg\n";
  return 0;
}

}  // namespace

int runScenario(const Args& args) {
  po::options_description own("Options of `morne scenario`");
  // clang-format off
  own.add_options()
      ("markdown", po::bool_switch(), "switches: print a Markdown table")
      ("agents", po::value<std::string>()->default_value("mcts:sims=64"),
       "balance: one agent spec (it plays itself) or two (each seed played twice, sides "
       "swapped)")
      ("pair", po::value<std::vector<std::string>>(),
       "analyse: an agent pair, \"A\" (A plays itself) or \"A vs B\" (each seed twice, sides "
       "swapped); repeatable (default: mcts:sims=64; rule; rule vs random; mcts:sims=64 vs rule; "
       "mcts:sims=256 vs mcts:sims=64)")
      ("games", po::value<int>(),
       "balance: games per handicap tried (default 200); analyse: games per pair (default 40)")
      ("max-games", po::value<int>()->default_value(800),
       "balance: games at most for a handicap whose interval is too wide to decide")
      ("max-tries", po::value<int>()->default_value(8), "balance: handicaps tried at most")
      ("seed", po::value<uint64_t>()->default_value(1),
       "balance, analyse: base seed (game i of every handicap, or of every pair, plays the "
       "same dice)")
      ("jobs", po::value<int>()->default_value(2), "balance, analyse: games played at once")
      ("out", po::value<std::string>(),
       "the run's folder; the same command continues a stopped run. balance (default "
       "balance-results): balance.json, games.csv, summary.json and the scenario with its "
       "handicap; analyse (default analysis-results): analysis.json, games.jsonl, report.txt, "
       "report.json, report.svg")
      ("force", po::bool_switch(),
       "balance, analyse: start over in an --out that holds another run")
      ("quiet", po::bool_switch(), "balance, analyse: no progress bar");
  // clang-format on
  const ParsedCommand cmd = parseCommand("scenario", args, own, -1);
  if (cmd.help || cmd.positional.empty()) {
    std::cout << usageText(kSynopsis, own);
    return cmd.help ? 0 : 1;
  }
  const std::string& verb = cmd.positional[0];
  const std::vector<std::string> rest(cmd.positional.begin() + 1, cmd.positional.end());
  if (verb == "validate") return validate(rest);
  if (verb == "show") {
    if (rest.size() != 1) throw ConfigError("scenario show: name exactly one scenario");
    return show(rest[0]);
  }
  if (verb == "list") {
    for (const env::BuiltinScenario& b : env::builtinScenarios()) {
      const auto sc = env::loadScenario(b.name);
      std::cout << b.name << (std::string(b.name) == env::kDefaultScenario ? " (default)" : "")
                << ": " << sc->title() << " (" << summary(*sc) << ")\n";
    }
    return 0;
  }
  if (verb == "switches") return switches(cmd.vm["markdown"].as<bool>());
  if (verb == "balance") {
    if (rest.size() != 1) throw ConfigError("scenario balance: name exactly one scenario");
    return balance(rest[0], cmd.vm);
  }
  if (verb == "analyse") {
    if (rest.size() != 1) throw ConfigError("scenario analyse: name exactly one scenario");
    return analyse(rest[0], cmd.vm);
  }
  throw ConfigError("scenario: unknown action \"" + verb +
                    "\" (validate, show, list, switches, balance or analyse)");
}

}  // namespace morne::cli
