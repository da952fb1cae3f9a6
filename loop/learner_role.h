#pragma once
// The learner of a learning run (loop/run_folder.h). It trains generation 1 once data set 0
// (the bootstrap games) holds its games, and each later generation once `games` more games
// have been played since it planned the last (in any data set: a worker goes on playing the
// best network while the learner trains and the gate decides, so neither waits for the other).
// It trains on every data set so far (the replay window keeps the recent rows), for at most
// `steps` steps and the reuse cap (each generation credits `max_reuse` times the training rows
// added since the last), then writes nets/candidate-gen-g.pt and train/gen-g.json for the
// gate. Its state is train/learner.json, written atomically before and after each training,
// so a learner killed at any point resumes from its checkpoint.
//
// With a process group it is a data-parallel learner (nn/process_group.h): rank 0 plans each
// training and tells the other ranks, every rank trains on its share of each batch, and rank 0
// alone writes files. Each training's exchanges between the ranks (the time inside the sums,
// waiting for the slowest rank included, and the floats summed) go into train/gen-NNN.json.

#include <optional>

#include "loop/loop_config.h"
#include "nn/measured_group.h"
#include "nn/process_group.h"
#include "training/training_data.h"

namespace morne::loop {

class LearnerRole {
 public:
  // Reads train/learner.json (rank 0; other ranks follow rank 0's plans). Throws ConfigError
  // when it is damaged.
  LearnerRole(const RoleContext& run, nn::ProcessGroup* group);

  // The generation it trains next; past the run's last when the run's training is done.
  int generation() const { return state_.generation; }

  // True when the next generation's data are there (rank 0).
  bool dataReady() const;

  // Counts `seconds` the learner waited for the next generation's data (rank 0); recorded in
  // its train/gen-NNN.json.
  void addWait(double seconds) { state_.waited_seconds += seconds; }

  // Plans the next generation's training (rank 0): what every rank is to do, as text.
  std::string planNext();

  // Carries out a plan (every rank): trains, and on rank 0 writes the candidate and moves on.
  // False when stopped.
  bool train(const std::string& plan);

  // Both, without a group.
  bool trainNext() { return train(planNext()); }

 private:
  struct State {
    int generation = 1;
    double reuse_budget = 0;    // training rows the reuse cap still allows
    int64_t credited_rows = 0;  // training rows the budget has been credited for
    int64_t train_target = -1;  // of `generation`'s training, once planned
    bool train_started = false;
    int64_t trained_steps = 0;  // the learner's steps after the last finished training
    double cpu_seconds = 0;
    int64_t counted_games = -1;  // of every data set when the last generation was planned
    double waited_seconds = 0;   // for the next generation's data
  };
  // train/learner.json's fields.
  static const env::OptionRow<State> kStateRows[9];
  // Games in every data set so far.
  int64_t gamesPlayed() const;
  void saveState();
  bool leads() const { return !group_ || group_->rank() == 0; }

  const RoleContext& run_;
  std::optional<nn::MeasuredGroup> measured_;  // the group given, its exchanges counted
  nn::ProcessGroup* group_;                    // the measured group, or null
  State state_;
  training::ShardSummaries known_;  // every shard is read once by this process
};

// The `morne loop train` process, on every rank: trains each generation when its data are
// there, until the run's last generation or a stop. Returns true when the last is trained.
bool runLearnerRole(const RoleContext& run, nn::ProcessGroup* group);

}  // namespace morne::loop
