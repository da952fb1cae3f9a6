// `morne loop`: the generation loop (cli/learning_loop.h, docs/training.md) from a config
// file; `--resume RUN` continues a run, `morne loop status RUN` tells where it stands.

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "agents/agent_kinds.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/learning_loop.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/selfplay_options.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/scenario_library.h"
#include "env/io/text_file.h"

namespace morne::cli {

namespace {

using nlohmann::json;

// The loop's own options, one row each (cli/option_table.h); how self-play games are played is
// as in `morne selfplay` (cli/selfplay_options.h), the training and network options are those
// of `morne train` (cli/train_options.h).
const OptionRow<LoopSettings> kLoopRows[] = {
    {"scenario", &LoopSettings::scenario, anyValue(), "built-in scenario name or scenario file"},
    {"mode", &LoopSettings::mode, anyValue(),
     "alternate (self-play, then training, each with the whole machine) or concurrent "
     "(self-play beside training, one thread each)"},
    {"generations", &LoopSettings::generations, atLeast(1), "generations to train"},
    {"bootstrap", &LoopSettings::bootstrap, anyValue(), "agent spec that plays generation 0"},
    {"bootstrap-games", &LoopSettings::bootstrap_games, atLeast(1), "games of generation 0"},
    {"agent", &LoopSettings::agent, anyValue(),
     "self-play agent spec of the best network (model= is added)"},
    {"games", &LoopSettings::games, atLeast(1), "self-play games per generation"},
    {"jobs", &LoopSettings::jobs, atLeast(1), "self-play threads and arena games at once"},
    {"threads", &LoopSettings::threads, atLeast(1), "LibTorch threads of the learner"},
    {"gate-agent", &LoopSettings::gate_agent, anyValue(),
     "agent spec of both networks in the gate (model= is added)"},
    {"gate-rounds", &LoopSettings::gate_rounds, atLeast(1),
     "duplicate rounds of the gate (2 games each)"},
    {"gate-score",
     &LoopSettings::gate_score,
     {0, 1},
     "the candidate is promoted when its gate score is at least this"},
    {"ladder-every", &LoopSettings::ladder_every, atLeast(0),
     "generations between ladders, each of the best network if it changed since the last "
     "(0: the last generation only)"},
    {"ladder-rounds", &LoopSettings::ladder_rounds, atLeast(1),
     "duplicate rounds against each reference"},
    {"ladder-agent", &LoopSettings::ladder_agent, anyValue(),
     "agent spec of the best network on the ladder (model= is added)"},
    {"ladder-references", &LoopSettings::ladder_references, anyValue(),
     "reference agent specs, separated by spaces; the first is the Elo anchor"},
};

constexpr const char* kRunFormat = "morne-loop/1";

// Checks what can be checked before a long run starts.
void checkConfig(const LoopConfig& c, const std::string& dir) {
  if (c.loop.mode != "alternate" && c.loop.mode != "concurrent")
    throw ConfigError("loop: --mode must be alternate or concurrent (got " + c.loop.mode + ")");
  if (dir.find_first_of(",:") != std::string::npos) {
    throw ConfigError("loop: the run folder's path " + dir +
                      " holds a ',' or ':', which agent specs cannot carry in model=");
  }
  c.train.learnerConfig();
  env::loadScenario(c.loop.scenario);
  agents::makeAgent(c.loop.bootstrap, 1);
  std::istringstream references(c.loop.ladder_references);
  int count = 0;
  for (std::string spec; references >> spec; ++count) agents::makeAgent(spec, 1);
  if (count == 0) throw ConfigError("loop: --ladder-references names no agent");
}

json configJson(const LoopConfig& c) {
  return {{"format", kRunFormat},
          {"loop", optionsJson<LoopSettings>(kLoopRows, c.loop)},
          {"selfplay", optionsJson<training::SelfPlayConfig>(selfplayPlayRows(), c.selfplay)},
          {"train", optionsJson<training::TrainSettings>(trainOptionRows(), c.train)},
          {"network", optionsJson<NetworkSource>(networkOptionRows(), c.network)},
          {"engine", versionLine()}};
}

LoopConfig readRunConfig(const std::string& dir) {
  const std::string where = dir + "/loop.json";
  const json j = json::parse(env::readTextFile(where, "loop record"), nullptr, false);
  if (!j.is_object() || j.value("format", "") != kRunFormat)
    throw ConfigError(where + ": not the record of a learning loop");
  LoopConfig c;
  readOptionsJson<LoopSettings>(where, j.at("loop"), kLoopRows, c.loop);
  readOptionsJson<training::SelfPlayConfig>(where, j.at("selfplay"), selfplayPlayRows(),
                                            c.selfplay);
  readOptionsJson<training::TrainSettings>(where, j.at("train"), trainOptionRows(), c.train);
  readOptionsJson<NetworkSource>(where, j.at("network"), networkOptionRows(), c.network);
  return c;
}

}  // namespace

int runLoop(const Args& args) {
  LoopConfig c;
  c.train.steps = 2000;  // per generation
  po::options_description own("Options of `morne loop`");
  // clang-format off
  own.add_options()
      ("out", po::value<std::string>(), "run folder to create")
      ("resume", po::value<std::string>(), "run folder to continue (its own settings)")
      ("quiet", po::bool_switch(), "no progress bars");
  // clang-format on
  addOptions<LoopSettings>(own, kLoopRows, c.loop);
  addOptions<training::SelfPlayConfig>(own, selfplayPlayRows(), c.selfplay);
  addOptions<training::TrainSettings>(own, trainOptionRows(), c.train);
  addOptions<NetworkSource>(own, networkOptionRows(), c.network);
  const ParsedCommand cmd = parseCommand("loop", args, own, 2);
  if (cmd.help) {
    std::cout << usageText(
        "morne loop --config FILE --out RUN [options]  |  morne loop --resume RUN  |  "
        "morne loop status RUN\n(training options apply to each generation: --steps and "
        "--max-reuse per generation)",
        own);
    return 0;
  }
  const auto& vm = cmd.vm;
  if (!cmd.positional.empty()) {
    if (cmd.positional[0] != "status" || cmd.positional.size() != 2)
      throw ConfigError("loop: the only action is `morne loop status RUN`");
    std::cout << loopStatus(cmd.positional[1]);
    return 0;
  }
  std::string dir;
  if (vm.count("resume")) {
    dir = vm["resume"].as<std::string>();
    for (const auto& [name, value] : vm) {
      if (!value.defaulted() && name != "resume" && name != "generations" && name != "quiet") {
        throw ConfigError("loop: --resume goes on with the run's own settings (" + dir +
                          "/loop.json); only --generations may be given, not --" + name);
      }
    }
    c = readRunConfig(dir);
    if (!vm["generations"].defaulted()) c.loop.generations = vm["generations"].as<int>();
  } else {
    if (!vm.count("out")) throw ConfigError("loop: give --out RUN (or --resume RUN)");
    dir = vm["out"].as<std::string>();
    readOptions<LoopSettings>("loop", vm, kLoopRows, c.loop);
    readOptions<training::SelfPlayConfig>("loop", vm, selfplayPlayRows(), c.selfplay);
    readOptions<training::TrainSettings>("loop", vm, trainOptionRows(), c.train);
    readOptions<NetworkSource>("loop", vm, networkOptionRows(), c.network);
    if (std::filesystem::exists(dir + "/loop.json")) {
      throw ConfigError("loop: " + dir + " already holds a run; continue it with --resume " + dir +
                        ", or choose another folder");
    }
  }
  dir = std::filesystem::absolute(dir).lexically_normal().string();
  checkConfig(c, dir);
  std::filesystem::create_directories(dir);
  if (!vm.count("resume") || !vm["generations"].defaulted())
    env::writeFileDurably(dir + "/loop.json", configJson(c).dump(2) + "\n");
  std::cout << versionLine() << "\nloop: run folder " << dir << "\n" << std::flush;
  const InterruptFlag interrupt;
  const bool finished = runLearningLoop(c, dir, vm["quiet"].as<bool>(), interrupt.flag());
  if (!finished) std::cout << "interrupted; continue with: morne loop --resume " << dir << "\n";
  return finished && !interrupt.raised() ? 0 : 130;
}

}  // namespace morne::cli
