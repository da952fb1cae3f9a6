#pragma once
// Training the policy-value network (nn/network.h), behind a LibTorch-free facade: the learner
// itself is in nn/torch/network.cpp. It takes batches of self-play rows (the layout of
// training/record.h), takes optimizer steps on them, measures them without learning
// (validation), and exports the network file that the "az" agents load.
//
// Loss (per row, averaged over the batch):
//   policy  cross-entropy of the search's target against the softmax of the policy logits
//           over the legal actions only (illegal entries are masked out);
//   value   squared error of the tanh value against the game's result for the side to move
//           (+1, 0, -1), times `value_weight`;
//   margin  squared error of the margin head against the final victory-point margin divided by
//           `margin_scale`, times `margin_weight`;
//   control squared error of the control head against the final control of each square,
//           averaged over the squares, times `control_weight`;
//   short value  squared error of the short-term value heads against their targets, averaged
//           over the horizons, times `short_value_weight`;
//   weight decay is the optimizer's (L2 for SGD, decoupled for AdamW), reported apart.
// An auxiliary loss counts only the targets that are known (not NaN), and is not computed (0)
// when its weight is 0.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "env/io/field_table.h"
#include "nn/network.h"
#include "nn/process_group.h"

namespace morne::nn {

// Rows of training data, row after row: planes [size, input.planeSize()], globals
// [size, input.globals], policy and legal [size, policySize(height, width)], value [size].
struct TrainingBatch {
  int size = 0;
  // The map grid of every row: 0 and 0 for the network's own (a map-bound network's rows);
  // an any-map network's rows name theirs.
  int height = 0;
  int width = 0;
  std::vector<float> planes;
  std::vector<float> globals;
  std::vector<float> policy;
  std::vector<uint8_t> legal;
  std::vector<float> value;
  // The search's root value of each row, for the side to move (training/shard_schema.h); the
  // learner does not read it: a training run mixes it into `value` (--q-ratio).
  std::vector<float> search_value;
  // A teacher search's root value of each row (NaN: none); mixed in by --teacher-ratio.
  std::vector<float> teacher_value;
  // The auxiliary targets (training/shard_schema.h), NaN where unknown; each may be empty (no
  // target): margin [size], control [size, height * width], short_value
  // [size, kShortValueOutputs].
  std::vector<float> margin;
  std::vector<float> control;
  std::vector<float> short_value;

  // Empties the batch, keeping its buffers (and its grid) for the next rows.
  void clear() {
    size = 0;
    for (std::vector<float>* v : {&planes, &globals, &policy, &value, &search_value, &teacher_value,
                                  &margin, &control, &short_value})
      v->clear();
    legal.clear();
  }
};

// The learner's settings: one row each below (learnerOptionRows), from which `morne train` and
// `morne loop` take their options, checks, help and records.
struct LearnerConfig {
  std::string optimizer = "sgd";  // "sgd": SGD with Nesterov momentum, or "adamw"
  double learning_rate = 0.02;    // after warm-up, before the decay
  double momentum = 0.9;          // SGD
  double weight_decay = 1e-4;
  int warmup_steps = 200;  // the rate rises linearly from 0 over these steps
  int decay_steps = 0;     // then it is multiplied by `decay` every decay_steps (0: never)
  double decay = 0.5;
  double max_grad_norm = 10;  // gradients clipped to this global norm (0: no clipping)
  double value_weight = 1.0;  // of the value loss in the total
  double margin_weight = 0;   // of the auxiliary losses (0: not trained)
  double margin_scale = 5;    // victory points of a margin target of 1 (duel: margins of -4..4)
  double control_weight = 0;
  double short_value_weight = 0;

  bool auxiliary() const {
    return margin_weight > 0 || control_weight > 0 || short_value_weight > 0;
  }
};

// The rows of LearnerConfig (env/io/field_table.h): names, bounds and choices, help.
std::span<const env::OptionRow<LearnerConfig>> learnerOptionRows();

// The losses and agreements of a batch, each beside its baseline (a network that knows
// nothing: uniform over the legal actions, value 0).
struct LossReport {
  int rows = 0;
  double policy_loss = 0;      // cross-entropy, nats
  double policy_baseline = 0;  // ... of the uniform policy over the legal actions
  double policy_top1 = 0;      // share of rows whose most likely action is the target's
  double value_loss = 0;       // squared error
  double value_baseline = 0;   // ... of predicting 0
  double value_sign = 0;       // share of decisive rows whose value has the result's sign
  // ... of predicting, for each row, the mean result of the rows with the same side to move:
  // what a value head scores that has learned only who usually wins (0 when not measured)
  double value_side_baseline = 0;
  // The variance of the value head's outputs and of the targets within each measured batch: a
  // head that predicts a constant has the first near 0 whatever the second (0 when not measured)
  double value_variance = 0;
  double value_target_variance = 0;
  double margin_loss = 0;      // the auxiliary heads' squared errors (0 when not trained) ...
  double margin_baseline = 0;  // ... and those of predicting 0
  double control_loss = 0;
  double control_baseline = 0;
  double short_value_loss = 0;
  double short_value_baseline = 0;
  double weight_norm = 0;  // squared L2 norm of the weights, what weight decay shrinks
                           // (measure() only)
};

// The per-row figures of a LossReport (all but rows and weight_norm), declared once: the sums
// of a training run, the columns of metrics.csv (train_NAME, val_NAME), the JSON of its records
// and the averages of a data-parallel step follow this table.
struct LossFigure {
  const char* name;
  double LossReport::*member;
  bool added_later = false;  // absent from the records of earlier runs, read as 0 there
};
std::span<const LossFigure> lossFigures();

// Whether `r` (validation losses) shows a value head no better than predicting each side's
// average result: its loss is at least 90% of value_side_baseline (false when not measured).
bool valueLearnsOnlyTheSide(const LossReport& r);

// Whether `r` shows a value head whose outputs vary by less than a tenth of the targets'
// variance: it predicts nearly a constant (false when not measured).
bool valuePredictsAConstant(const LossReport& r);

// The total loss of `r` under `config`'s weights (what step() minimises, less weight decay).
double totalLoss(const LossReport& r, const LearnerConfig& config);

class Learner {
 public:
  // A learner for a fresh network of `net` (weights drawn from `seed`), or for the network
  // saved at `path` (throws as Network::load).
  static std::unique_ptr<Learner> create(const NetworkConfig& net, uint64_t seed,
                                         const LearnerConfig& config);
  static std::unique_ptr<Learner> fromFile(const std::string& path, const LearnerConfig& config);

  virtual ~Learner() = default;

  // One optimizer step on `batch`; the report is of the batch before the step (training
  // mode: batch-norm statistics of the batch). Throws Error when the loss is not finite.
  virtual LossReport step(const TrainingBatch& batch) = 0;

  // The report of `batch` without learning, of the network as exportNetwork() writes it
  // (evaluation mode, as the agents see it).
  virtual LossReport measure(const TrainingBatch& batch) = 0;

  // Rows whose batch-norm statistics the measured and exported network uses: the population
  // statistics of the current weights, computed on these rows in batches of 256. Without
  // (or with none), the running averages of the training steps, which lag behind weights that
  // change at every step: measured on duel, validation losses then jump between steps (value
  // loss 0.65 to 1.58, above the baseline of predicting 0) where the calibrated network's stay
  // near 0.42. The training itself is not affected. Rows of several maps (an any-map network's
  // data of several scenarios) come as one batch a map, each batch of 256 counting alike.
  virtual void setCalibrationRows(const std::vector<TrainingBatch>& parts) = 0;

  // Optimizer steps taken, and the learning rate of the next one.
  virtual int64_t steps() const = 0;
  virtual double learningRate() const = 0;

  // The network as it stands, as the agents load it (a temporary file, then renamed), with
  // `provenance` (JSON, NetworkConfig::provenance).
  virtual void exportNetwork(const std::string& path, const std::string& provenance) = 0;

  // Writes everything the learner needs to go on to `path`: the weights, the optimizer's
  // state, the step count and the network's config, with `extra` (the caller's own state: data
  // position, random generators, settings) beside them. A temporary file, synced, then renamed:
  // an interruption leaves the previous checkpoint whole.
  virtual void saveCheckpoint(const std::string& path, const std::string& extra) const = 0;

  // Continues from a checkpoint saved by saveCheckpoint() and returns its `extra`. Throws
  // IoError (unreadable) or ConfigError (not a checkpoint, or one of another network shape or
  // optimizer).
  virtual std::string loadCheckpoint(const std::string& path) = 0;

  virtual const NetworkConfig& networkConfig() const = 0;

  // Makes this learner one rank of a data-parallel learner (nn/process_group.h): its weights
  // and batch-norm statistics become rank 0's, and from then on every step() averages the
  // ranks' gradients before the optimizer step (each rank's batch being its equal share of
  // the step's rows), averages the batch-norm statistics after it, and reports the figures of
  // all the ranks' rows; so every rank holds the same weights after every step. `group`
  // outlives the learner.
  virtual void joinGroup(ProcessGroup& group) = 0;
};

// The bar the learner is measured against (`morne bench train`): rows per second of plain
// LibTorch training of a fresh network of `net` on `batch`, the batch already in tensors and
// nothing reported: forward, the same two losses, backward, clipping and an optimizer step of
// `config`, repeated for `seconds`.
double rawTrainingRate(const NetworkConfig& net, const TrainingBatch& batch,
                       const LearnerConfig& config, double seconds);

}  // namespace morne::nn
