// `morne scenario`: validate, show and list scenarios; list the rule switches.

#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "env/error.h"
#include "env/io/ascii_map.h"
#include "env/io/scenario_library.h"
#include "env/rule_switches.h"
#include "env/rules.h"

namespace morne::cli {

namespace {

constexpr const char* kSynopsis =
    "morne scenario validate FILE...   check scenario files, report every problem\n"
    "       morne scenario show NAME|FILE    print the map and orders of battle\n"
    "       morne scenario list              list the built-in scenarios\n"
    "       morne scenario switches [--markdown]  list the rule switches and their defaults";

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
         std::to_string(units[0]) + " blue / " + std::to_string(units[1]) + " orange units" + rules;
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

}  // namespace

int runScenario(const Args& args) {
  po::options_description own("Options of `morne scenario`");
  own.add_options()("markdown", po::bool_switch(), "switches: print a Markdown table");
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
  throw ConfigError("scenario: unknown action \"" + verb + "\" (validate, show, list or switches)");
}

}  // namespace morne::cli
