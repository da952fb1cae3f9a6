#include "loop/loop_config.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/number_text.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/scenario_library.h"
#include "env/io/text_file.h"
#include "training/selfplay_options.h"
#include "training/train_options.h"
#include "training/train_record.h"

namespace morne::loop {

namespace {

using nlohmann::json;

constexpr const char* kRecordFormat = "morne-loop/1";

// The loop's own settings, one row each; how self-play games are played is as in `morne
// selfplay` (training/selfplay_options.h), the training and network settings are those of
// `morne train` (training/train_options.h).
const env::OptionRow<LoopSettings> kLoopRows[] = {
    {"scenario", &LoopSettings::scenario, env::anyValue(),
     "built-in scenario name or scenario file"},
    {"mode", &LoopSettings::mode, env::oneOf("alternate|processes"),
     "alternate (self-play, training and gate in turn in one process, each with the whole "
     "machine) or processes (self-play workers, the learner and the gate as processes at once)"},
    {"generations", &LoopSettings::generations, env::atLeast(1), "generations to train"},
    {"max-cpu-hours", &LoopSettings::max_cpu_hours, env::atLeast(0),
     "the alternate mode stops after the first gate at which the run has spent this many "
     "CPU-hours, all roles counted (0: no limit; runs compared at equal cost)",
     env::kRecorded, env::before("0")},
    {"bootstrap", &LoopSettings::bootstrap, env::anyValue(), "agent spec that plays generation 0"},
    {"init", &LoopSettings::init, env::anyValue(),
     "a network to start from (a warm start; empty: none): copied into the run as "
     "nets/gen-000.pt, it plays generation 0 as the self-play agent instead of the bootstrap "
     "agent, and generation 1 trains from its weights",
     env::kRecorded, env::before("\"\"")},
    {"bootstrap-games", &LoopSettings::bootstrap_games, env::atLeast(1), "games of generation 0"},
    {"agent", &LoopSettings::agent, env::anyValue(),
     "self-play agent spec of the best network (model= is added)"},
    {"games", &LoopSettings::games, env::atLeast(1), "self-play games per generation"},
    {"jobs", &LoopSettings::jobs, env::atLeast(1), "self-play threads and arena games at once"},
    {"threads", &LoopSettings::threads, env::atLeast(1), "LibTorch threads of the learner"},
    {"workers", &LoopSettings::workers, env::atLeast(0),
     "self-play processes the processes mode starts (more may join from anywhere)"},
    {"chunk-games", &LoopSettings::chunk_games, env::atLeast(1),
     "games a worker plays between two looks for a newer network"},
    {"resign-bound",
     &LoopSettings::resign_bound,
     {0, 1},
     "a worker suspends resignation (its games all play on, measured) while more than this "
     "share of its recent checked games would have resigned wrongly (1: never)",
     env::kRecorded,
     env::before("1")},
    {"gate-agent", &LoopSettings::gate_agent, env::anyValue(),
     "agent spec of both networks in the gate (model= is added)"},
    {"gate", &LoopSettings::gate, env::oneOf("score|sprt|none"),
     "the promotion rule: score (gate-score over gate-rounds), sprt (a sequential test, at "
     "most gate-rounds pairs) or none (always the newest network, unless below gate-guard)",
     env::kRecorded, env::before("\"score\"")},
    {"gate-rounds", &LoopSettings::gate_rounds, env::atLeast(1),
     "duplicate rounds of the gate (2 games each); the SPRT's cap"},
    {"spread-positions", &LoopSettings::spread_positions, env::atLeast(0),
     "positions of a rule game on which the gate measures each candidate's search spread "
     "(the spread of the root children's values in a 200-simulation search; 0: none)",
     env::kRecorded, env::before("0")},
    {"gate-score",
     &LoopSettings::gate_score,
     {0, 1},
     "the candidate is promoted when its gate score is at least this"},
    {"sprt-elo0", &LoopSettings::sprt_elo0, env::anyValue(),
     "the SPRT's null hypothesis: the candidate is this many Elo stronger", env::kRecorded,
     env::before("0")},
    {"sprt-elo1", &LoopSettings::sprt_elo1, env::anyValue(),
     "the SPRT's alternative: this many Elo stronger (above sprt-elo0)", env::kRecorded,
     env::before("35")},
    {"sprt-alpha",
     &LoopSettings::sprt_alpha,
     {0, 0.5, true, true},
     "the SPRT's chance of promoting a candidate of sprt-elo0",
     env::kRecorded,
     env::before("0.05")},
    {"sprt-beta",
     &LoopSettings::sprt_beta,
     {0, 0.5, true, true},
     "the SPRT's chance of rejecting a candidate of sprt-elo1",
     env::kRecorded,
     env::before("0.05")},
    {"gate-guard",
     &LoopSettings::gate_guard,
     {0, 1},
     "the rule none: reject a candidate scoring below this in gate-rounds rounds (0: no games)",
     env::kRecorded,
     env::before("0")},
    {"average-snapshots", &LoopSettings::average_snapshots, env::atLeast(1),
     "the network gated (and played once promoted) is the moving average of this many latest "
     "candidates (1: the candidate itself; KataGo: 4)",
     env::kRecorded, env::before("1")},
    {"average-decay",
     &LoopSettings::average_decay,
     {0, 1, true, false},
     "weight of each older candidate in the average against the next newer one",
     env::kRecorded,
     env::before("0.75")},
    {"ladder-every", &LoopSettings::ladder_every, env::atLeast(0),
     "generations between ladders, each of the best network if it changed since the last "
     "(0: the last generation only)"},
    {"ladder-rounds", &LoopSettings::ladder_rounds, env::atLeast(1),
     "duplicate rounds against each reference"},
    {"ladder-agent", &LoopSettings::ladder_agent, env::anyValue(),
     "agent spec of the best network on the ladder (model= is added)"},
    {"ladder-references", &LoopSettings::ladder_references, env::anyValue(),
     "reference agent specs, separated by spaces; the first is the Elo anchor"},
};

}  // namespace

std::span<const env::OptionRow<LoopSettings>> loopSettingRows() { return kLoopRows; }

void checkLoopSettings(const LoopSettings& s) {
  for (const env::OptionRow<LoopSettings>& r : kLoopRows) {  // --mode, --gate: their choices
    const auto* text = std::get_if<std::string LoopSettings::*>(&r.field);
    if (text && !r.range.allows(s.**text)) {
      throw ConfigError("loop: --" + std::string(r.name) + " must be " + r.range.choicesText() +
                        " (got \"" + s.**text + "\")");
    }
  }
  if (s.max_cpu_hours > 0 && s.mode != "alternate")
    throw ConfigError("loop: --max-cpu-hours applies to --mode alternate only");
  if (!(s.sprt_elo1 > s.sprt_elo0)) {
    throw ConfigError("loop: --sprt-elo1 (" + core::shortText(s.sprt_elo1) +
                      ") must be above --sprt-elo0 (" + core::shortText(s.sprt_elo0) + ")");
  }
}

void writeLoopRecord(const std::string& dir, const LoopConfig& c) {
  const json record = {{"format", kRecordFormat},
                       {"loop", env::optionsJson<LoopSettings>(kLoopRows, c.loop)},
                       {"selfplay", env::optionsJson<training::SelfPlayConfig>(
                                        training::selfplayPlayRows(), c.selfplay)},
                       {"train", training::trainSettingsJson(c.train)},
                       {"network", env::optionsJson<training::NetworkSource>(
                                       training::networkOptionRows(), c.network)},
                       {"engine", core::versionLine()}};
  env::writeFileDurably(dir + "/loop.json", record.dump(2) + "\n");
}

LoopConfig readLoopRecord(const std::string& dir) {
  const std::string where = dir + "/loop.json";
  const json j = json::parse(env::readTextFile(where, "loop record"), nullptr, false);
  if (!j.is_object() || j.value("format", "") != kRecordFormat)
    throw ConfigError(where + ": not the record of a learning loop");
  LoopConfig c;
  // Settings added since format 1 began read as their rows' `before` values.
  env::readOptionsJson<LoopSettings>(where, j.value("loop", json::object()), kLoopRows, c.loop);
  env::readOptionsJson<training::SelfPlayConfig>(where, j.at("selfplay"),
                                                 training::selfplayPlayRows(), c.selfplay);
  training::readTrainSettingsJson(where, j.at("train"), c.train);
  env::readOptionsJson<training::NetworkSource>(where, j.at("network"),
                                                training::networkOptionRows(), c.network);
  return c;
}

namespace fs = std::filesystem;

RoleContext openRun(const LoopConfig& config, const std::string& run_dir, bool quiet,
                    const std::atomic<bool>* stop) {
  const RunFolder folder(run_dir);
  if (fs::exists(folder.path("state.json")) && !fs::exists(folder.path("gates/state.json"))) {
    throw ConfigError(run_dir +
                      " was made by an earlier version of `morne loop` (state.json, before the "
                      "roles of docs/scale-out.md); start a new run");
  }
  for (const char* sub : {"selfplay", "train", "nets", "gates", "ladder", "workers"})
    fs::create_directories(folder.path(sub));
  if (!config.loop.init.empty()) folder.placeInitialNetwork(config.loop.init);
  return RoleContext{config, folder, env::loadScenario(config.loop.scenario), quiet, stop};
}

void RoleContext::say(const std::string& line) const {
  std::cout << line << "\n" << std::flush;
  folder.log(line);
}

}  // namespace morne::loop
