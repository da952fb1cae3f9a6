#pragma once
// The settings of a learning run (`morne loop`, docs/training.md) and what each of its roles
// (loop/selfplay_worker.h, loop/learner_role.h, loop/gate_role.h) is given to work with.

#include <atomic>
#include <memory>
#include <span>
#include <string>

#include "env/io/field_table.h"
#include "env/scenario.h"
#include "loop/run_folder.h"
#include "training/network_source.h"
#include "training/selfplay_config.h"
#include "training/train_run.h"

namespace morne::loop {

struct LoopSettings {
  std::string scenario = "duel";
  std::string mode = "alternate";  // or "processes"
  int generations = 8;
  double max_cpu_hours = 0;  // the alternate mode stops after the gate that spends it (0: never)
  std::string bootstrap = "mcts:sims=200";  // plays generation 0
  std::string init;  // a network to start from (a warm start): it plays generation 0 instead
  int bootstrap_games = 256;
  std::string agent = "az:sims=32,gumbel=1";  // self-play with the best network (model= added)
  int games = 128;                            // self-play games per generation
  int jobs = 2;                               // self-play threads, arena games at once
  int threads = 1;                            // LibTorch threads of the learner
  int workers = 1;                            // self-play processes of the "processes" mode
  int chunk_games = 32;  // games a worker plays between two looks at latest.json
  // Resignation is suspended (every game plays on, and is measured) while more than this share
  // of a worker's recent checked games would have resigned wrongly (1: never suspended).
  double resign_bound = 0.05;
  std::string gate_agent = "az:sims=32,noise=0.3";
  std::string gate = "score";  // the promotion rule: score, sprt or none (loop/gate_rule.h)
  int gate_rounds = 16;        // duplicate rounds of the score gate; the SPRT's cap on pairs
  // Positions of the gate's search-spread probe (agents/search_spread.h; 0: no probe).
  int spread_positions = 20;
  double gate_score = 0.5;
  double sprt_elo0 = 0;
  double sprt_elo1 = 35;
  double sprt_alpha = 0.05;
  double sprt_beta = 0.05;
  double gate_guard = 0;      // the rule none: reject a candidate scoring below this (0: no games)
  int average_snapshots = 1;  // candidates averaged into the network gated and played
  double average_decay = 0.75;  // weight of each older candidate against the next
  int ladder_every = 1;  // generations between ladders of a changed best network (and the last)
  int ladder_rounds = 8;
  std::string ladder_agent = "az:ms=50";                     // the best network on the ladder
  std::string ladder_references = "rule random mcts:ms=50";  // the first is the Elo anchor

  bool operator==(const LoopSettings&) const = default;
};

// Throws ConfigError naming the setting when the settings cannot make a run (an unknown mode
// or gate rule, SPRT hypotheses or error rates that make no test).
void checkLoopSettings(const LoopSettings& s);

// Everything a run is made of: the loop's settings, how self-play games are played (its
// agent, games, seeds and folders are the loop's), the training settings (applied to each
// generation's training: `steps` and `max_reuse` are per generation) and the network.
struct LoopConfig {
  LoopSettings loop;
  training::SelfPlayConfig selfplay;
  training::TrainSettings train;
  training::NetworkSource network;
};

// Seed streams of a run: each role's draws come from its own.
enum LoopStream : uint64_t {
  kSelfplayStream = 1,
  kTrainStream = 2,
  kGateStream = 3,
  kLadderStream = 4
};

// What a role works with: the run's settings and folder, its scenario, and how it reports.
struct RoleContext {
  const LoopConfig& config;
  RunFolder folder;
  std::shared_ptr<const env::Scenario> scenario;
  bool quiet = false;                       // no progress bars
  const std::atomic<bool>* stop = nullptr;  // the role returns soon after it becomes true

  bool stopping() const { return stop && stop->load(); }
  // Prints `line` and appends it to the run's log.
  void say(const std::string& line) const;
};

// The context the roles of a run share in this process (its scenario loaded, its folders
// made) for the loop of `config` in `run_dir` (which holds its loop.json); the roles stop
// between or inside steps when `*stop` becomes true. Throws ConfigError for a run folder of an
// earlier version.
RoleContext openRun(const LoopConfig& config, const std::string& run_dir, bool quiet,
                    const std::atomic<bool>* stop);

// The run's own settings, one row each (env/io/field_table.h): `morne loop`'s options and the
// "loop" object of loop.json.
std::span<const env::OptionRow<LoopSettings>> loopSettingRows();

// RUN/loop.json, the record of a run (format morne-loop/1): its settings, written whole by
// rename, and the engine that made it.
void writeLoopRecord(const std::string& dir, const LoopConfig& config);

// The settings of the run in `dir`. Throws ConfigError naming RUN/loop.json when it is not a
// run's record or a setting is missing, of the wrong type or out of range; IoError when it
// cannot be read.
LoopConfig readLoopRecord(const std::string& dir);

}  // namespace morne::loop
