#pragma once
// `morne loop`: the AlphaZero-style generation loop on one machine (docs/training.md). From
// generation 0, played by a bootstrap agent, each generation g:
//
//   train    the learner goes on, on every self-play generation so far (the replay window
//            keeps the recent ones), for at most `steps` steps and the reuse cap;
//   gate     the candidate plays the best network in duplicate rounds; it is promoted when
//            its score reaches `gate_score` (the first candidate is promoted at once);
//   ladder   on a schedule, when it changed, the best network plays fixed references at equal
//            time per decision: an Elo with its 95% interval, by generation and by CPU-hour;
//   selfplay the best network plays `games` games, the data of the next generation.
//
// In the "alternate" mode these run one after the other, each with the whole machine; in
// "concurrent" the self-play of generation g (with the best network before its gate) runs
// beside its training, each on its own threads.
//
// Everything lives in the run folder, and every step is recorded in RUN/state.json (written
// atomically) before and after it, so `--resume` continues after a crash or a kill -9 at any
// point: self-play keeps every finished game, training resumes from its checkpoint, and a
// gate or ladder cut short is played again (the same seeds, the same games).

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "cli/gate_rule.h"
#include "cli/train_options.h"
#include "training/selfplay_config.h"
#include "training/train_run.h"

namespace morne::cli {

struct LoopSettings {
  std::string scenario = "duel";
  std::string mode = "alternate";  // or "concurrent"
  int generations = 8;
  std::string bootstrap = "mcts:sims=200";  // plays generation 0
  int bootstrap_games = 256;
  std::string agent = "az:sims=32,gumbel=1";  // self-play with the best network (model= added)
  int games = 128;                            // self-play games per generation
  int jobs = 2;                               // self-play threads, arena games at once
  int threads = 1;                            // LibTorch threads of the learner
  std::string gate_agent = "az:sims=32,noise=0.3";
  int gate_rounds = 16;
  double gate_score = 0.5;
  int ladder_every = 1;  // generations between ladders of a changed best network (and the last)
  int ladder_rounds = 8;
  std::string ladder_agent = "az:ms=50";                     // the best network on the ladder
  std::string ladder_references = "rule random mcts:ms=50";  // the first is the Elo anchor
};

// Everything a run is made of: the loop's settings, how self-play games are played (its
// agent, games, seeds and folders are the loop's), the training settings (applied to each
// generation's training: `steps` and `max_reuse` are per generation) and the network.
struct LoopConfig {
  LoopSettings loop;
  training::SelfPlayConfig selfplay;
  training::TrainSettings train;
  NetworkSource network;
};

// Runs or resumes the loop of `config` in `run_dir`; stops between or inside steps when
// `*stop` becomes true. Returns true when the last generation is done. Progress goes to
// stdout and RUN/log.txt. Throws ConfigError or IoError.
bool runLearningLoop(const LoopConfig& config, const std::string& run_dir, bool quiet,
                     const std::atomic<bool>* stop);

// Where a run stands, read from its folder without touching it (`morne loop status`).
std::string loopStatus(const std::string& run_dir);

}  // namespace morne::cli
