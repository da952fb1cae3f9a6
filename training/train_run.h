#pragma once
// A training run: a learner (nn/learner.h) trained on the shards of some folders, in a run
// folder that holds everything needed to go on after an interruption (docs/training.md):
//
//   checkpoint.pt   weights, optimizer state, step, data position, metrics so far (atomic)
//   net.pt          the network as the agents load it, exported with each checkpoint
//   metrics.csv     one row every `metrics_every` steps: training and validation figures
//                   beside their baselines
//
// The learner is made by the caller (LibTorch stays out of this library); the run feeds it,
// measures it, checkpoints it, and resumes it.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "nn/learner.h"
#include "training/training_data.h"

namespace morne::training {

// The settings of a training run, flat so that one table of rows (training/train_options.h)
// declares them all.
// Mixes the search values into the value targets of `batch`: value = (1 - q_ratio) value +
// q_ratio search_value (a batch without search values is left as it is).
void mixValueTargets(nn::TrainingBatch& batch, double q_ratio);

// Mixes the value teacher's values into the value targets of `batch` (after q_ratio): value =
// (1 - teacher_ratio) value + teacher_ratio teacher_value, on the rows that have one (not NaN).
void mixTeacherValues(nn::TrainingBatch& batch, double teacher_ratio);

// The victory-point margin at which the victory level is total (V-LEVEL-1: 4 or more).
inline constexpr double kTotalVictoryMargin = 4;

// Mixes the victory level into the value targets of `batch`: value = (1 - level_ratio) value +
// level_ratio clamp(margin / kTotalVictoryMargin, -1, 1), the margin for the side to move (rows
// whose margin is unknown, and a batch without margins, are left as they are). On a one-sided
// scenario, where one side wins nearly every game, the level still tells a narrow win from a
// total one (V-REWARD-1 leaves the reward to the trainer).
void mixVictoryLevels(nn::TrainingBatch& batch, double level_ratio);

struct TrainSettings {
  std::vector<std::string> data_dirs;  // shard folders, oldest first
  // When set, exactly these shards of the folders, not all those there now (the ranks of a
  // data-parallel learner read the same, while workers add shards).
  std::vector<std::string> shard_files;
  // The data (training/training_data.h), its defaults.
  double window_c = WindowConfig{}.c;
  double window_a = WindowConfig{}.a;
  double window_b = WindowConfig{}.b;
  int validation_permille = DataConfig{}.validation_permille;
  int validation_rows = 2048;  // most recent validation rows measured, at most
  // Most recent training rows whose batch-norm statistics the measured and exported network
  // uses (nn/learner.h), at most (0: the running averages).
  int calibration_rows = 4096;
  int shuffle_rows = DataConfig{}.shuffle_rows;
  // The learner's settings (nn/learner.h: its rows, defaults and checks).
  nn::LearnerConfig learner;
  // The value target of a training row: (1 - q_ratio) x the game's result + q_ratio x the
  // search's root value there (lc0's q_ratio); validation rows keep the result.
  double q_ratio = 0;
  // The share of the value teacher's value in the value target (mixTeacherValues, after
  // q_ratio; rows without one keep theirs); validation rows keep the result.
  double teacher_ratio = 0;
  // The share of the victory level in the value target (mixVictoryLevels, before q_ratio);
  // validation rows keep the result.
  double level_ratio = 0;
  // Data of several scenarios (an any-map network): "duel=1,pyramids=3", each scenario's
  // weight (parseScenarioShares). Every batch is one scenario's rows, the scenario drawn by
  // these weights from the seed and the step; each has its own window, validation rows and
  // calibration sample. Empty: the data hold one scenario.
  std::string shares;
  // The run.
  int batch = 256;
  int steps = 0;         // optimizer steps in all (0: as many as max_reuse allows)
  double max_reuse = 4;  // training rows seen per row of the window, at most (0: no cap)
  int metrics_every = 100;
  int checkpoint_every = 500;
  uint64_t seed = 1;  // of the data order (the weights' seed is the network's)

  // The data's settings.
  DataConfig dataConfig() const;
};

// The figures of a stretch of steps.
struct TrainMetrics {
  int64_t step = 0;
  int64_t samples = 0;
  double seconds = 0;  // of training, across interruptions
  double learning_rate = 0;
  nn::LossReport train;                      // averaged over the steps since the last row
  std::optional<nn::LossReport> validation;  // none without validation games
};

// What the caller sees while a run goes.
struct TrainProgress {
  int64_t step = 0;
  int64_t target = 0;
  double samples_per_second = 0;  // this session
  double reader_rows_per_second = 0;
  const TrainMetrics* metrics = nullptr;  // set when a metrics row was just written
};

struct TrainOutcome {
  int64_t step = 0;
  int64_t target = 0;
  bool interrupted = false;
  std::optional<TrainMetrics> last;  // the last metrics row
  int64_t shards = 0;
  int64_t rows = 0;
  int64_t window_rows = 0;
  int64_t training_rows = 0;  // of the window
};

// The scenario weights of TrainSettings::shares ("NAME=WEIGHT,..."), in the order given.
// Throws ConfigError naming the entry that is malformed, has a weight that is not positive, or
// names a scenario twice.
std::vector<std::pair<std::string, double>> parseScenarioShares(const std::string& text);

// The scenario (an index into `weights`) of the batch of step `step` of a run of seed `seed`:
// drawn in proportion to the weights, the same for the same seed and step.
size_t scenarioOfStep(std::span<const double> weights, uint64_t seed, int64_t step);

// The steps a run of `s` takes on a window of `training_rows` rows: s.steps, capped by
// s.max_reuse (0: no cap; with steps 0, the cap itself).
int64_t targetSteps(const TrainSettings& s, int64_t training_rows);

// How a training run starts.
enum class TrainStart {
  kFresh,    // from the learner as it is, at step 0 of the data
  kResume,   // from run_dir/checkpoint.pt, exactly where it stopped: the same shards (the
             // first as many as it knew) and the same data position
  kNewData,  // from run_dir/checkpoint.pt's weights, optimizer, step and metrics, on all the
             // shards of the data folders now, from the start of the stream of `seed`
             // (`morne loop`: the next generation's training)
};

// Trains `learner` in `run_dir` (which exists) until the target step.
class TrainingRun {
 public:
  // Indexes the data and starts as `start` says; metrics rows written after the checkpoint
  // are dropped. A fresh or new-data start saves its starting point at once. `provenance`
  // (JSON) goes into net.pt with the run's figures. With a `group`, this run is one rank of
  // a data-parallel learner (nn/process_group.h): every rank reads the same stream of rows and
  // trains on its share of each batch (the batch must divide among the ranks), the ranks stop
  // together, and rank 0 alone writes the run's files. Shard summaries come from `known` when
  // given (a learner that indexes the same shards again and again). Throws ConfigError (data
  // that do not fit the network, a damaged checkpoint) or IoError.
  TrainingRun(nn::Learner& learner, const TrainSettings& settings, const std::string& run_dir,
              TrainStart start, const std::string& provenance, nn::ProcessGroup* group = nullptr,
              ShardSummaries* known = nullptr);
  ~TrainingRun();

  // What the run will do: shards, rows, window, target (step: where it starts).
  const TrainOutcome& plan() const { return out_; }

  // Trains to the target. `progress` is called after every step; when `*stop` becomes true
  // the run checkpoints and returns interrupted.
  TrainOutcome run(const std::function<void(const TrainProgress&)>& progress,
                   const std::atomic<bool>* stop);

 private:
  struct State;
  void save();
  std::string networkProvenance() const;
  bool writesFiles() const { return !group_ || group_->rank() == 0; }
  bool stopNow(const std::atomic<bool>* stop) const;

  nn::Learner& learner_;
  TrainSettings settings_;
  std::string dir_;
  std::string provenance_;
  nn::ProcessGroup* group_;
  TrainOutcome out_;
  std::unique_ptr<State> state_;
};

// The header and the rows of metrics.csv.
std::string metricsCsvHeader();
// The cells of a line of metrics.csv (a trailing comma ends with an empty cell).
std::vector<std::string> metricsCells(const std::string& line);
std::string metricsCsvRow(const TrainMetrics& m);

}  // namespace morne::training
