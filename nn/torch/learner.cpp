// The learner of nn/learner.h over the LibTorch network (nn/torch/policy_value_net.h): the
// losses of every head, the optimizer, checkpoints, batch-norm calibration and the
// data-parallel steps.

#include "nn/learner.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "env/check.h"
#include "env/error.h"
#include "nn/archive_check.h"
#include "nn/observation.h"
#include "nn/torch/entry_points.h"
#include "nn/torch/policy_value_net.h"

namespace morne::nn {

namespace {

constexpr const char* kCheckpointKey = "morne_checkpoint";
// Rows per forward pass of the batch-norm calibration.
constexpr int64_t kCalibrationBatch = 256;

// The batch as tensors (copies: the batch may be reused while the graph lives); the auxiliary
// targets are undefined where the batch has none.
struct BatchTensors {
  torch::Tensor planes, globals, policy, legal, value;
  torch::Tensor margin, control, short_value;
};

BatchTensors tensorsOf(const TrainingBatch& b, const NetworkConfig& c) {
  const auto n = static_cast<size_t>(b.size);
  ObservationShape in = c.input;
  if (b.height > 0) {
    MORNE_CHECK(c.anyMap() || (b.height == in.height && b.width == in.width),
                "a training batch of another map than the network's");
    in.height = b.height;
    in.width = b.width;
  }
  MORNE_CHECK(in.height > 0 && in.width > 0, "an any-map network's batch without its grid");
  const auto area = static_cast<size_t>(in.height * in.width);
  const int policy = c.policySize(in.height, in.width);
  MORNE_CHECK(b.size > 0 && b.planes.size() == n * static_cast<size_t>(in.planeSize()) &&
                  b.globals.size() == n * static_cast<size_t>(in.globals) &&
                  b.policy.size() == n * static_cast<size_t>(policy) &&
                  b.legal.size() == b.policy.size() && b.value.size() == n &&
                  (b.margin.empty() || b.margin.size() == n) &&
                  (b.control.empty() || b.control.size() == n * area) &&
                  (b.short_value.empty() || b.short_value.size() == n * kShortValueOutputs),
              "a training batch of another shape than the network's");
  auto floats = [](const std::vector<float>& v, std::vector<int64_t> shape) {
    if (v.empty()) return torch::Tensor();
    return torch::from_blob(const_cast<float*>(v.data()), shape, torch::kFloat32).clone();
  };
  const int64_t rows = b.size;
  BatchTensors t{
      floats(b.planes, {rows, in.planes, in.height, in.width}),
      floats(b.globals, {rows, in.globals}),
      floats(b.policy, {rows, policy}),
      torch::from_blob(const_cast<uint8_t*>(b.legal.data()), {rows, policy}, torch::kUInt8)
          .to(torch::kBool),
      floats(b.value, {rows}),
      floats(b.margin, {rows}),
      floats(b.control, {rows, static_cast<int64_t>(area)}),
      floats(b.short_value, {rows, kShortValueOutputs})};
  return t;
}

// The squared error of `out` against the known (not NaN) entries of `target`, averaged over
// them, with the error of predicting 0 beside it; 0 and 0 without targets or outputs.
struct AuxLoss {
  torch::Tensor loss;
  double loss_value = 0, baseline = 0;
};
AuxLoss maskedSquaredError(const torch::Tensor& out, const torch::Tensor& target) {
  if (!out.defined() || !target.defined()) return {};
  const torch::Tensor known = ~torch::isnan(target);
  const torch::Tensor zeroed = torch::where(known, target, torch::zeros_like(target));
  const torch::Tensor count = known.sum().to(torch::kFloat32).clamp_min(1);
  AuxLoss a;
  a.loss = ((out - zeroed).pow(2) * known).sum() / count;
  torch::NoGradGuard no_grad;
  a.loss_value = a.loss.item<double>();
  a.baseline = (zeroed.pow(2).sum() / count).item<double>();
  return a;
}

// The squared error of predicting each row's `value` by the mean value of the rows with the
// same side to move (the global feature mover_is_blue of `globals`).
double sideConstantError(const torch::Tensor& value, const torch::Tensor& globals) {
  static const int64_t mover_is_blue = [] {
    const auto names = ObservationEncoder::globalNames();
    const auto it = std::find(names.begin(), names.end(), "mover_is_blue");
    MORNE_CHECK(it != names.end(), "the observation has no mover_is_blue feature");
    return static_cast<int64_t>(it - names.begin());
  }();
  const torch::Tensor blue = globals.select(1, mover_is_blue) > 0.5f;
  double error = 0;
  for (const torch::Tensor& side : {blue, ~blue}) {
    const torch::Tensor n = side.sum();
    if (n.item<int64_t>() == 0) continue;
    const torch::Tensor mean = (value * side).sum() / n;
    error += ((value - mean).pow(2) * side).sum().item<double>();
  }
  return error / static_cast<double>(std::max<int64_t>(1, value.size(0)));
}

// The losses of one forward pass `o` against `t` under `config`: the total to minimise and
// the report.
struct Losses {
  torch::Tensor total;
  LossReport report;
};

Losses lossesOf(const NetOutputs& o, const BatchTensors& t, const LearnerConfig& config) {
  // Illegal entries get a large negative logit: exp() of them is 0, and 0 x it stays finite.
  const torch::Tensor masked = o.policy.masked_fill(~t.legal, -1e9);
  const torch::Tensor log_p = torch::log_softmax(masked, 1);
  const torch::Tensor policy_loss = -(t.policy * log_p).sum(1).mean();
  const torch::Tensor value_loss = (o.value - t.value).pow(2).mean();
  const AuxLoss margin =
      config.margin_weight > 0
          ? maskedSquaredError(o.margin, t.margin.defined()
                                             ? t.margin / static_cast<float>(config.margin_scale)
                                             : t.margin)
          : AuxLoss{};
  const AuxLoss control =
      config.control_weight > 0 ? maskedSquaredError(o.control, t.control) : AuxLoss{};
  const AuxLoss short_value =
      config.short_value_weight > 0 ? maskedSquaredError(o.short_value, t.short_value) : AuxLoss{};

  Losses out{policy_loss + config.value_weight * value_loss, {}};
  if (margin.loss.defined()) out.total = out.total + config.margin_weight * margin.loss;
  if (control.loss.defined()) out.total = out.total + config.control_weight * control.loss;
  if (short_value.loss.defined())
    out.total = out.total + config.short_value_weight * short_value.loss;
  torch::NoGradGuard no_grad;
  LossReport& r = out.report;
  r.rows = static_cast<int>(t.value.size(0));
  r.policy_loss = policy_loss.item<double>();
  const torch::Tensor legal_count = t.legal.sum(1).to(torch::kFloat32).clamp_min(1);
  r.policy_baseline = (t.policy.sum(1) * legal_count.log()).mean().item<double>();
  r.policy_top1 =
      (masked.argmax(1) == t.policy.argmax(1)).to(torch::kFloat32).mean().item<double>();
  r.value_loss = value_loss.item<double>();
  r.value_baseline = t.value.pow(2).mean().item<double>();
  const torch::Tensor decisive = t.value != 0;
  const int64_t n_decisive = decisive.sum().item<int64_t>();
  r.value_sign = n_decisive == 0
                     ? 0
                     : ((o.value.sign() == t.value.sign()) & decisive).sum().item<double>() /
                           static_cast<double>(n_decisive);
  r.value_side_baseline = sideConstantError(t.value, t.globals);
  r.value_variance = o.value.var(/*unbiased=*/false).item<double>();
  r.value_target_variance = t.value.var(/*unbiased=*/false).item<double>();
  r.margin_loss = margin.loss_value;
  r.margin_baseline = margin.baseline;
  r.control_loss = control.loss_value;
  r.control_baseline = control.baseline;
  r.short_value_loss = short_value.loss_value;
  r.short_value_baseline = short_value.baseline;
  return out;
}

// The optimizer of `config` over the parameters of `net`.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(PolicyValueNet& net,
                                                       const LearnerConfig& config) {
  for (const env::OptionRow<LearnerConfig>& row : learnerOptionRows()) {  // its choices
    if (std::string_view(row.name) == "optimizer" && !row.range.allows(config.optimizer)) {
      throw ConfigError("learner: the optimizer must be " + row.range.choicesText() + " (got \"" +
                        config.optimizer + "\")");
    }
  }
  if (config.optimizer == "sgd") {
    return std::make_unique<torch::optim::SGD>(net->parameters(),
                                               torch::optim::SGDOptions(config.learning_rate)
                                                   .momentum(config.momentum)
                                                   .nesterov(config.momentum > 0)
                                                   .weight_decay(config.weight_decay));
  }
  return std::make_unique<torch::optim::AdamW>(
      net->parameters(),
      torch::optim::AdamWOptions(config.learning_rate).weight_decay(config.weight_decay));
}

class TorchLearner : public Learner {
 public:
  TorchLearner(const NetworkConfig& net_config, PolicyValueNet net, const LearnerConfig& config)
      : net_config_(net_config),
        net_(std::move(net)),
        config_(config),
        optimizer_(makeOptimizer(net_, config_)) {}

  LossReport step(const TrainingBatch& batch) override {
    const BatchTensors t = tensorsOf(batch, net_config_);
    net_->train();
    setLearningRate(learningRate());
    optimizer_->zero_grad();
    Losses l = lossesOf(net_->outputs(t.planes, t.globals, config_.auxiliary()), t, config_);
    l.total.backward();
    double loss = l.total.item<double>();
    if (group_) loss = averageOverGroup(l.report);
    if (!std::isfinite(loss)) {
      throw Error("training step " + std::to_string(steps_ + 1) +
                  ": the loss is not finite (learning rate " + std::to_string(learningRate()) +
                  " too high, or damaged data)");
    }
    if (config_.max_grad_norm > 0)
      torch::nn::utils::clip_grad_norm_(net_->parameters(), config_.max_grad_norm);
    optimizer_->step();
    if (group_) averageBuffers();
    ++steps_;
    return l.report;
  }

  void joinGroup(ProcessGroup& group) override {
    group_ = &group;
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> state = net_->parameters();
    for (const torch::Tensor& b : floatBuffers()) state.push_back(b);
    torch::Tensor flat = torch::cat(flatViews(state)).contiguous();
    group.broadcast(flat.data_ptr<float>(), static_cast<size_t>(flat.numel()));
    scatterInto(flat, state);
    evaluation_ = nullptr;
  }

  LossReport measure(const TrainingBatch& batch) override {
    const BatchTensors t = tensorsOf(batch, net_config_);
    PolicyValueNet net = evaluationNetwork();
    torch::NoGradGuard no_grad;
    LossReport r =
        lossesOf(net->outputs(t.planes, t.globals, config_.auxiliary()), t, config_).report;
    r.weight_norm = weightNorm();
    return r;
  }

  void setCalibrationRows(const std::vector<TrainingBatch>& parts) override {
    calibration_.clear();
    for (const TrainingBatch& rows : parts)
      if (rows.size > 0) calibration_.push_back(tensorsOf(rows, net_config_));
    evaluation_ = nullptr;
  }

  int64_t steps() const override { return steps_; }

  double learningRate() const override {
    const double warm = config_.warmup_steps > 0
                            ? std::min(1.0, static_cast<double>(steps_ + 1) /
                                                static_cast<double>(config_.warmup_steps))
                            : 1.0;
    const int64_t after = std::max<int64_t>(0, steps_ - config_.warmup_steps);
    const double decays =
        config_.decay_steps > 0 ? static_cast<double>(after / config_.decay_steps) : 0.0;
    return config_.learning_rate * warm * std::pow(config_.decay, decays);
  }

  void exportNetwork(const std::string& path, const std::string& provenance) override {
    NetworkConfig config = net_config_;
    config.provenance = provenance;
    wrapNetwork(config, evaluationNetwork())->save(path);
  }

  const NetworkConfig& networkConfig() const override { return net_config_; }

  void saveCheckpoint(const std::string& path, const std::string& extra) const override {
    saveArchiveDurably(path, "checkpoint", [&](torch::serialize::OutputArchive& archive) {
      torch::serialize::OutputArchive net_archive, optimizer_archive;
      net_->save(net_archive);
      optimizer_->save(optimizer_archive);
      archive.write("net", net_archive);
      archive.write("optimizer", optimizer_archive);
      archive.write(kCheckpointKey, torch::IValue(checkpointHeader()));
      archive.write("steps", torch::IValue(steps_));
      archive.write("extra", torch::IValue(extra));
    });
  }

  std::string loadCheckpoint(const std::string& path) override {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      throw IoError("checkpoint " + path + ": no such file");
    checkArchiveCrcs(path);
    torch::serialize::InputArchive archive, net_archive, optimizer_archive;
    torch::IValue header, steps, extra;
    const bool has_header = readArchive(path, "not a morne checkpoint", [&] {
      archive.load_from(path);
      return archive.try_read(kCheckpointKey, header) && header.isString();
    });
    if (!has_header) throw ConfigError(path + ": not a morne checkpoint");
    if (header.toStringRef() != checkpointHeader()) {
      throw ConfigError(path + ": a checkpoint of another network or optimizer (" +
                        header.toStringRef() + "; this learner: " + checkpointHeader() + ")");
    }
    const bool whole = readArchive(path, "damaged checkpoint", [&] {
      archive.read("net", net_archive);
      archive.read("optimizer", optimizer_archive);
      net_->load(net_archive);
      optimizer_->load(optimizer_archive);
      return archive.try_read("steps", steps) && steps.isInt() &&
             archive.try_read("extra", extra) && extra.isString();
    });
    if (!whole) {
      throw ConfigError(path + ": damaged checkpoint (no step count or state)");
    }
    steps_ = steps.toInt();
    return extra.toStringRef();
  }

 private:
  // What a checkpoint must match to be loaded: the network's shape and the optimizer.
  std::string checkpointHeader() const {
    const NetworkConfig& c = net_config_;
    return "morne-checkpoint/1 " + c.scenario + " " + std::to_string(c.input.planes) + "x" +
           std::to_string(c.input.height) + "x" + std::to_string(c.input.width) + "+" +
           std::to_string(c.input.globals) +
           (c.anyMap() ? " policy planes " + std::to_string(c.policy_planes)
                       : " policy " + std::to_string(c.policySize(c.input.height, c.input.width))) +
           " blocks " + std::to_string(c.blocks) + " channels " + std::to_string(c.channels) +
           " value " + std::to_string(c.value_hidden) + " encoder " +
           std::to_string(c.encoder_version) + (c.aux_heads ? " aux" : "") + " " +
           config_.optimizer;
  }

  void setLearningRate(double rate) {
    for (auto& group : optimizer_->param_groups()) {
      if (config_.optimizer == "sgd") {
        static_cast<torch::optim::SGDOptions&>(group.options()).lr(rate);
      } else {
        static_cast<torch::optim::AdamWOptions&>(group.options()).lr(rate);
      }
    }
  }

  // The network as the agents see it, in evaluation mode: a copy of the weights, with the
  // batch-norm statistics of the calibration rows when there are some (else the running
  // averages of the training steps). Kept until the next step.
  PolicyValueNet evaluationNetwork() {
    if (evaluation_ && evaluation_step_ == steps_) return evaluation_;
    PolicyValueNet copy(net_config_);
    torch::NoGradGuard no_grad;
    const auto from = net_->named_parameters(true);
    for (auto& item : copy->named_parameters(true)) item.value().copy_(from[item.key()]);
    const auto buffers = net_->named_buffers(true);
    for (auto& item : copy->named_buffers(true)) item.value().copy_(buffers[item.key()]);
    if (!calibration_.empty()) {
      // Population statistics of these weights: a cumulative average over the rows, in
      // batches of the training size (the running averages lag behind weights that change
      // at every step, and the network is sensitive to them).
      copy->train();
      for (const auto& module : copy->modules(false)) {
        if (auto* bn = module->as<tnn::BatchNorm2d>()) {
          bn->options.momentum(c10::nullopt);
          bn->reset_running_stats();
        }
      }
      for (const BatchTensors& part : calibration_) {
        const int64_t rows = part.planes.size(0);
        for (int64_t first = 0; first < rows; first += kCalibrationBatch) {
          const int64_t n = std::min(kCalibrationBatch, rows - first);
          copy->forward(part.planes.narrow(0, first, n), part.globals.narrow(0, first, n));
        }
      }
      for (const auto& module : copy->modules(false)) {
        if (auto* bn = module->as<tnn::BatchNorm2d>()) bn->options.momentum(0.1);
      }
    }
    copy->eval();
    evaluation_ = copy;
    evaluation_step_ = steps_;
    return copy;
  }

  static std::vector<torch::Tensor> flatViews(const std::vector<torch::Tensor>& tensors) {
    std::vector<torch::Tensor> views;
    for (const torch::Tensor& t : tensors) views.push_back(t.reshape({-1}));
    return views;
  }

  // Copies the consecutive pieces of `flat` back into `tensors`.
  static void scatterInto(const torch::Tensor& flat, std::vector<torch::Tensor>& tensors) {
    int64_t at = 0;
    for (torch::Tensor& t : tensors) {
      t.copy_(flat.narrow(0, at, t.numel()).view_as(t));
      at += t.numel();
    }
  }

  // The batch-norm running statistics (its step counters, integers, stay each rank's own).
  std::vector<torch::Tensor> floatBuffers() const {
    std::vector<torch::Tensor> out;
    for (const torch::Tensor& b : net_->buffers()) {
      if (b.scalar_type() == torch::kFloat) out.push_back(b);
    }
    return out;
  }

  // Averages the gradients and the report over the ranks, in one collective; returns the
  // average loss.
  double averageOverGroup(LossReport& r) {
    std::vector<torch::Tensor> grads;
    for (const torch::Tensor& p : net_->parameters()) {
      if (p.grad().defined()) grads.push_back(p.grad());
    }
    const double rows = r.rows;
    std::vector<float> values = {static_cast<float>(rows)};
    for (const LossFigure& f : lossFigures())
      values.push_back(static_cast<float>(r.*f.member * rows));
    const torch::Tensor figures = torch::tensor(values);
    std::vector<torch::Tensor> pieces = flatViews(grads);
    pieces.push_back(figures);
    torch::Tensor flat = torch::cat(pieces).contiguous();
    group_->sum(flat.data_ptr<float>(), static_cast<size_t>(flat.numel()));
    const int64_t n = flat.numel() - figures.numel();
    torch::Tensor sums = flat.narrow(0, n, figures.numel());
    const auto total_rows = sums[0].item<double>();
    r.rows = static_cast<int>(total_rows);
    int64_t k = 1;
    for (const LossFigure& f : lossFigures()) r.*f.member = sums[k++].item<double>() / total_rows;
    torch::Tensor mean_grads = flat.narrow(0, 0, n) / static_cast<float>(group_->size());
    torch::NoGradGuard no_grad;
    scatterInto(mean_grads, grads);
    return totalLoss(r, config_);
  }

  void averageBuffers() {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> buffers = floatBuffers();
    torch::Tensor flat = torch::cat(flatViews(buffers)).contiguous();
    group_->sum(flat.data_ptr<float>(), static_cast<size_t>(flat.numel()));
    flat /= static_cast<float>(group_->size());
    scatterInto(flat, buffers);
  }

  double weightNorm() const {
    torch::NoGradGuard no_grad;
    double sum = 0;
    for (const torch::Tensor& p : net_->parameters()) sum += p.pow(2).sum().item<double>();
    return sum;
  }

  NetworkConfig net_config_;
  PolicyValueNet net_;
  LearnerConfig config_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  int64_t steps_ = 0;
  std::vector<BatchTensors> calibration_;  // one a map
  PolicyValueNet evaluation_{nullptr};     // evaluationNetwork() of step evaluation_step_
  int64_t evaluation_step_ = -1;
  ProcessGroup* group_ = nullptr;  // of a data-parallel learner
};

}  // namespace

std::unique_ptr<Learner> createTorchLearner(const NetworkConfig& net, uint64_t seed,
                                            const LearnerConfig& config) {
  return std::make_unique<TorchLearner>(net, makePolicyValueNet(net, seed), config);
}

double torchTrainingRate(const NetworkConfig& net_config, const TrainingBatch& batch,
                         const LearnerConfig& config, double seconds) {
  PolicyValueNet net = makePolicyValueNet(net_config, 1);
  net->train();
  const auto optimizer = makeOptimizer(net, config);
  const BatchTensors t = tensorsOf(batch, net_config);
  auto step = [&] {
    optimizer->zero_grad();
    const auto [logits, value] = net->forward(t.planes, t.globals);
    const torch::Tensor policy_loss =
        -(t.policy * torch::log_softmax(logits.masked_fill(~t.legal, -1e9), 1)).sum(1).mean();
    (policy_loss + config.value_weight * (value - t.value).pow(2).mean()).backward();
    if (config.max_grad_norm > 0)
      torch::nn::utils::clip_grad_norm_(net->parameters(), config.max_grad_norm);
    optimizer->step();
  };
  step();  // warm-up
  int64_t rows = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    step();
    rows += batch.size;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return static_cast<double>(rows) / elapsed;
}

std::unique_ptr<Learner> torchLearnerFromFile(const std::string& path,
                                              const LearnerConfig& config) {
  auto [net_config, net] = loadPolicyValueNet(path);
  if (config.auxiliary() && !net_config.aux_heads) {
    throw ConfigError(path +
                      ": a network without auxiliary heads (made before they existed); "
                      "train a fresh one to give the margin, control or short-value losses a "
                      "weight");
  }
  return std::make_unique<TorchLearner>(net_config, std::move(net), config);
}

}  // namespace morne::nn
