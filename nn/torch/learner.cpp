// The learner behind nn/learner.h: masked policy cross-entropy, value squared error, SGD with
// Nesterov momentum or AdamW, linear warm-up then step decay, global gradient clipping.

#include "nn/learner.h"

#include <chrono>
#include <cmath>
#include <filesystem>

#include "env/check.h"
#include "env/error.h"
#include "nn/torch/policy_value_net.h"

namespace morne::nn {

namespace {

constexpr const char* kCheckpointKey = "morne_checkpoint";

// The batch as tensors (copies: the batch may be reused while the graph lives).
struct BatchTensors {
  torch::Tensor planes, globals, policy, legal, value;
};

BatchTensors tensorsOf(const TrainingBatch& b, const NetworkConfig& c) {
  const auto n = static_cast<size_t>(b.size);
  const ObservationShape& in = c.input;
  MORNE_CHECK(b.size > 0 && b.planes.size() == n * static_cast<size_t>(in.planeSize()) &&
                  b.globals.size() == n * static_cast<size_t>(in.globals) &&
                  b.policy.size() == n * static_cast<size_t>(c.policySize()) &&
                  b.legal.size() == b.policy.size() && b.value.size() == n,
              "a training batch of another shape than the network's");
  auto floats = [](const std::vector<float>& v, std::vector<int64_t> shape) {
    return torch::from_blob(const_cast<float*>(v.data()), shape, torch::kFloat32).clone();
  };
  const int64_t rows = b.size;
  return {
      floats(b.planes, {rows, in.planes, in.height, in.width}),
      floats(b.globals, {rows, in.globals}), floats(b.policy, {rows, c.policySize()}),
      torch::from_blob(const_cast<uint8_t*>(b.legal.data()), {rows, c.policySize()}, torch::kUInt8)
          .to(torch::kBool),
      floats(b.value, {rows})};
}

// The losses of one forward pass; `policy` and `value` are the network's outputs.
struct Losses {
  torch::Tensor policy, value;
  LossReport report;
};

Losses lossesOf(const torch::Tensor& logits, const torch::Tensor& value, const BatchTensors& t) {
  // Illegal entries get a large negative logit: exp() of them is 0, and 0 x it stays finite.
  const torch::Tensor masked = logits.masked_fill(~t.legal, -1e9);
  const torch::Tensor log_p = torch::log_softmax(masked, 1);
  const torch::Tensor policy_loss = -(t.policy * log_p).sum(1).mean();
  const torch::Tensor value_loss = (value - t.value).pow(2).mean();

  Losses out{policy_loss, value_loss, {}};
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
                     : ((value.sign() == t.value.sign()) & decisive).sum().item<double>() /
                           static_cast<double>(n_decisive);
  return out;
}

// The optimizer of `config` over the parameters of `net`.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(PolicyValueNet& net,
                                                       const LearnerConfig& config) {
  if (config.optimizer == OptimizerKind::kSgd) {
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
    const auto [logits, value] = net_->forward(t.planes, t.globals);
    Losses l = lossesOf(logits, value, t);
    const torch::Tensor total = l.policy + config_.value_weight * l.value;
    if (!std::isfinite(total.item<double>())) {
      throw Error("training step " + std::to_string(steps_ + 1) +
                  ": the loss is not finite (learning rate " + std::to_string(learningRate()) +
                  " too high, or damaged data)");
    }
    total.backward();
    if (config_.max_grad_norm > 0)
      torch::nn::utils::clip_grad_norm_(net_->parameters(), config_.max_grad_norm);
    optimizer_->step();
    ++steps_;
    return l.report;
  }

  LossReport measure(const TrainingBatch& batch) override {
    const BatchTensors t = tensorsOf(batch, net_config_);
    net_->eval();
    torch::NoGradGuard no_grad;
    const auto [logits, value] = net_->forward(t.planes, t.globals);
    LossReport r = lossesOf(logits, value, t).report;
    r.weight_norm = weightNorm();
    return r;
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

  void exportNetwork(const std::string& path) const override {
    // A copy in evaluation mode, as Network::load would give it.
    PolicyValueNet copy(net_config_);
    {
      torch::NoGradGuard no_grad;
      const auto from = net_->named_parameters(true);
      for (auto& item : copy->named_parameters(true)) item.value().copy_(from[item.key()]);
      const auto buffers = net_->named_buffers(true);
      for (auto& item : copy->named_buffers(true)) item.value().copy_(buffers[item.key()]);
    }
    wrapNetwork(net_config_, copy)->save(path);
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
    torch::serialize::InputArchive archive, net_archive, optimizer_archive;
    torch::IValue header, steps, extra;
    try {
      archive.load_from(path);
    } catch (const c10::Error& e) {
      throw ConfigError(path + ": not a morne checkpoint (" + e.what_without_backtrace() + ")");
    }
    if (!archive.try_read(kCheckpointKey, header) || !header.isString()) {
      throw ConfigError(path + ": not a morne checkpoint");
    }
    if (header.toStringRef() != checkpointHeader()) {
      throw ConfigError(path + ": a checkpoint of another network or optimizer (" +
                        header.toStringRef() + "; this learner: " + checkpointHeader() + ")");
    }
    try {
      archive.read("net", net_archive);
      archive.read("optimizer", optimizer_archive);
      net_->load(net_archive);
      optimizer_->load(optimizer_archive);
    } catch (const c10::Error& e) {
      throw ConfigError(path + ": damaged checkpoint (" + e.what_without_backtrace() + ")");
    }
    if (!archive.try_read("steps", steps) || !steps.isInt() || !archive.try_read("extra", extra) ||
        !extra.isString()) {
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
           std::to_string(c.input.globals) + " policy " + std::to_string(c.policySize()) +
           " blocks " + std::to_string(c.blocks) + " channels " + std::to_string(c.channels) +
           " value " + std::to_string(c.value_hidden) + " encoder " +
           std::to_string(c.encoder_version) + " " +
           (config_.optimizer == OptimizerKind::kSgd ? "sgd" : "adamw");
  }

  void setLearningRate(double rate) {
    for (auto& group : optimizer_->param_groups()) {
      if (config_.optimizer == OptimizerKind::kSgd) {
        static_cast<torch::optim::SGDOptions&>(group.options()).lr(rate);
      } else {
        static_cast<torch::optim::AdamWOptions&>(group.options()).lr(rate);
      }
    }
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
};

}  // namespace

std::unique_ptr<Learner> Learner::create(const NetworkConfig& net, uint64_t seed,
                                         const LearnerConfig& config) {
  return std::make_unique<TorchLearner>(net, makePolicyValueNet(net, seed), config);
}

double rawTrainingRate(const NetworkConfig& net_config, const TrainingBatch& batch,
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

std::unique_ptr<Learner> Learner::fromFile(const std::string& path, const LearnerConfig& config) {
  auto [net_config, net] = loadPolicyValueNet(path);
  return std::make_unique<TorchLearner>(net_config, std::move(net), config);
}

}  // namespace morne::nn
