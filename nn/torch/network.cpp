// The one translation unit that includes LibTorch: the policy-value network as LibTorch
// modules, behind the facades nn/network.h (create, load, save, evaluate) and nn/learner.h
// (training). One file, so that no header includes LibTorch.

#include <dlfcn.h>
#include <malloc.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

#include "env/check.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "nn/archive_check.h"
#include "nn/learner.h"

namespace morne::nn {

namespace {

namespace tnn = torch::nn;

struct ResidualBlockImpl : tnn::Module {
  explicit ResidualBlockImpl(int channels)
      : conv1(register_module(
            "conv1",
            tnn::Conv2d(tnn::Conv2dOptions(channels, channels, 3).padding(1).bias(false)))),
        bn1(register_module("bn1", tnn::BatchNorm2d(channels))),
        conv2(register_module(
            "conv2",
            tnn::Conv2d(tnn::Conv2dOptions(channels, channels, 3).padding(1).bias(false)))),
        bn2(register_module("bn2", tnn::BatchNorm2d(channels))) {}

  torch::Tensor forward(const torch::Tensor& x) {
    torch::Tensor y = torch::relu(bn1(conv1(x)));
    return torch::relu(x + bn2(conv2(y)));
  }

  tnn::Conv2d conv1;
  tnn::BatchNorm2d bn1;
  tnn::Conv2d conv2;
  tnn::BatchNorm2d bn2;
};
TORCH_MODULE(ResidualBlock);

// `layer` applied to each row of `x` on its own: in inference, a multiply and a sum over each
// row, so that a row's result does not depend on its place in the batch (the matrix product of
// a batch blocks rows in groups, and rows of different groups are summed in different orders:
// the same position gave other bits in slot 6 than in slot 0). Training keeps the product.
torch::Tensor linearByRow(tnn::Linear& layer, const torch::Tensor& x, bool training) {
  if (training) return layer(x);
  return (x.unsqueeze(1) * layer->weight.unsqueeze(0)).sum(-1) + layer->bias;
}

struct PolicyValueNetImpl : tnn::Module {
  explicit PolicyValueNetImpl(const NetworkConfig& c)
      : stem(register_module(
            "stem",
            tnn::Conv2d(tnn::Conv2dOptions(c.input.planes, c.channels, 3).padding(1).bias(false)))),
        stem_bn(register_module("stem_bn", tnn::BatchNorm2d(c.channels))),
        globals_in(register_module("globals_in", tnn::Linear(c.input.globals, c.channels))),
        tower(register_module("tower", tnn::Sequential())),
        policy_conv(register_module(
            "policy_conv", tnn::Conv2d(tnn::Conv2dOptions(c.channels, c.policy_planes, 1)))),
        pass_fc(register_module("pass_fc", tnn::Linear(c.channels, 2))),
        value_fc1(register_module("value_fc1",
                                  tnn::Linear(c.channels + c.input.globals, c.value_hidden))),
        value_fc2(register_module("value_fc2", tnn::Linear(c.value_hidden, 1))) {
    for (int b = 0; b < c.blocks; ++b) tower->push_back(ResidualBlock(c.channels));
  }

  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& planes,
                                                  const torch::Tensor& globals) {
    const bool t = is_training();
    torch::Tensor x =
        stem_bn(stem(planes)) + linearByRow(globals_in, globals, t).unsqueeze(-1).unsqueeze(-1);
    x = tower->forward(torch::relu(x));
    const torch::Tensor pooled = x.mean({2, 3});
    const torch::Tensor policy =
        torch::cat({policy_conv(x).flatten(1), linearByRow(pass_fc, pooled, t)}, 1);
    const torch::Tensor hidden =
        torch::relu(linearByRow(value_fc1, torch::cat({pooled, globals}, 1), t));
    const torch::Tensor value = torch::tanh(linearByRow(value_fc2, hidden, t)).squeeze(1);
    return {policy, value};
  }

  tnn::Conv2d stem;
  tnn::BatchNorm2d stem_bn;
  tnn::Linear globals_in;
  tnn::Sequential tower;
  tnn::Conv2d policy_conv;
  tnn::Linear pass_fc;
  tnn::Linear value_fc1;
  tnn::Linear value_fc2;
};
TORCH_MODULE(PolicyValueNet);

constexpr const char* kConfigKey = "morne_network_config";
constexpr const char* kChecksumKey = "morne_weights_checksum";

// Every parameter and buffer of the network by name, in registration order.
std::vector<std::pair<std::string, torch::Tensor>> namedTensors(const PolicyValueNet& net) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& item : net->named_parameters(true)) out.emplace_back(item.key(), item.value());
  for (const auto& item : net->named_buffers(true)) out.emplace_back(item.key(), item.value());
  return out;
}

// FNV-1a (64 bits) over the names and the bytes of every tensor: a flipped bit anywhere in the
// weights changes it.
uint64_t weightsChecksum(const PolicyValueNet& net) {
  uint64_t h = 1469598103934665603ull;
  auto add = [&h](const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  for (const auto& [name, tensor] : namedTensors(net)) {
    add(name.data(), name.size());
    const torch::Tensor t = tensor.detach().cpu().contiguous();
    add(t.data_ptr(), static_cast<size_t>(t.numel()) * t.element_size());
  }
  return h;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Throws ConfigError naming the first tensor with a NaN or infinite value.
void checkFiniteWeights(const PolicyValueNet& net, const std::string& path) {
  for (const auto& [name, tensor] : namedTensors(net)) {
    if (!tensor.is_floating_point()) continue;
    const int64_t bad = (~torch::isfinite(tensor.detach())).sum().item<int64_t>();
    if (bad > 0) {
      throw ConfigError(path + ": " + std::to_string(bad) + " of the " +
                        std::to_string(tensor.numel()) + " weights of " + name +
                        " are NaN or infinite; the network cannot be used");
    }
  }
}

// Writes the archive `fill` builds to `path` durably: built in memory, then written under a
// temporary name, synced and renamed (an interruption or a full disk leaves the previous file
// whole and no temporary file). LibTorch's own file writer is not used: on a full disk it
// ended the process ("terminate called after throwing ... c10::Error", SIGABRT). Throws
// IoError naming `what` and `path`.
void saveArchiveDurably(const std::string& path, const std::string& what,
                        const std::function<void(torch::serialize::OutputArchive&)>& fill) {
  std::string bytes;
  try {
    torch::serialize::OutputArchive archive;
    fill(archive);
    archive.save_to([&bytes](const void* data, size_t n) {
      bytes.append(static_cast<const char*>(data), n);
      return n;
    });
  } catch (const c10::Error& e) {
    throw IoError("cannot write " + what + " " + path + ": " + e.what_without_backtrace());
  }
  try {
    env::writeFileDurably(path, bytes);
  } catch (const IoError& e) {
    throw IoError("cannot write " + what + " " + path + ": " + e.what());
  }
}

// The first line of a LibTorch message (a damaged archive's parser error runs to many lines).
std::string firstLine(const char* text) {
  const std::string s(text);
  const size_t begin = std::min(s.find_first_not_of(" \t\r\n"), s.size());
  return s.substr(begin, std::min(s.find('\n', begin) - begin, size_t{300}));
}

// Runs `read` on an archive of `path`; a failure of LibTorch's reader on a damaged or foreign
// file (c10::Error, or the TorchScript parser's error for a damaged code record) becomes
// ConfigError "PATH: PROBLEM (reason)". morne's own errors pass unchanged.
template <class Read>
auto readArchive(const std::string& path, const std::string& problem, Read read) {
  try {
    return read();
  } catch (const Error&) {
    throw;
  } catch (const c10::Error& e) {
    throw ConfigError(path + ": " + problem + " (" + firstLine(e.what_without_backtrace()) + ")");
  } catch (const std::exception& e) {
    throw ConfigError(path + ": " + problem + " (" + firstLine(e.what()) + ")");
  }
}

class TorchNetwork : public Network {
 public:
  TorchNetwork(const NetworkConfig& config, PolicyValueNet net)
      : config_(config), net_(std::move(net)), checksum_(weightsChecksum(net_)) {
    net_->eval();
  }

  void save(const std::string& path) const override {
    saveArchiveDurably(path, "network", [this](torch::serialize::OutputArchive& archive) {
      net_->save(archive);
      archive.write(kConfigKey, torch::IValue(networkConfigJson(config_).dump()));
      archive.write(kChecksumKey, torch::IValue(hex64(checksum_)));
    });
  }

  void evaluate(int batch, std::span<const float> planes, std::span<const float> globals,
                std::span<float> policy_logits, std::span<float> values) override {
    const ObservationShape& in = config_.input;
    const auto n = static_cast<size_t>(batch);
    MORNE_CHECK(planes.size() == n * static_cast<size_t>(in.planeSize()) &&
                    globals.size() == n * static_cast<size_t>(in.globals) &&
                    policy_logits.size() == n * static_cast<size_t>(config_.policySize()) &&
                    values.size() == n,
                "network inputs or outputs of another size than the batch");
    torch::InferenceMode guard;
    // from_blob needs a non-const pointer; the tensors are only read.
    const torch::Tensor p = torch::from_blob(const_cast<float*>(planes.data()),
                                             {batch, in.planes, in.height, in.width});
    const torch::Tensor g =
        torch::from_blob(const_cast<float*>(globals.data()), {batch, in.globals});
    const auto [policy, value] = net_->forward(p, g);
    std::memcpy(
        policy_logits.data(), policy.contiguous().data_ptr<float>(),
        static_cast<size_t>(batch) * static_cast<size_t>(config_.policySize()) * sizeof(float));
    std::memcpy(values.data(), value.contiguous().data_ptr<float>(),
                static_cast<size_t>(batch) * sizeof(float));
    const size_t outputs = static_cast<size_t>(batch) * static_cast<size_t>(config_.policySize());
    bool finite = true;
    for (size_t i = 0; i < outputs; ++i) finite = finite && std::isfinite(policy_logits[i]);
    for (size_t i = 0; i < static_cast<size_t>(batch); ++i)
      finite = finite && std::isfinite(values[i]);
    if (!finite) {
      throw Error("the network gave NaN or infinite outputs for a batch of " +
                  std::to_string(batch) + " positions (damaged weights or inputs)");
    }
  }

  uint64_t checksum() const override { return checksum_; }

  const NetworkConfig& config() const override { return config_; }

  int64_t parameters() const override {
    int64_t n = 0;
    for (const torch::Tensor& t : net_->parameters()) n += t.numel();
    return n;
  }

  std::vector<float> weightValues() const override {
    std::vector<float> out;
    for (const auto& [name, tensor] : namedTensors(net_)) {
      if (!tensor.is_floating_point()) continue;
      const torch::Tensor t = tensor.detach().to(torch::kFloat).contiguous();
      out.insert(out.end(), t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    }
    return out;
  }

 private:
  NetworkConfig config_;
  PolicyValueNet net_;
  uint64_t checksum_;
};

std::unique_ptr<Network> wrapNetwork(const NetworkConfig& config, PolicyValueNet net) {
  return std::make_unique<TorchNetwork>(config, std::move(net));
}

PolicyValueNet makePolicyValueNet(const NetworkConfig& config, uint64_t seed) {
  torch::manual_seed(seed);
  return PolicyValueNet(config);
}

std::pair<NetworkConfig, PolicyValueNet> loadPolicyValueNet(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw IoError("network " + path + ": " +
                  (std::filesystem::exists(path, ec) ? "not an ordinary file" : "no such file"));
  }
  checkArchiveCrcs(path);
  torch::serialize::InputArchive archive;
  torch::IValue text;
  const bool has_config = readArchive(path, "not a morne network", [&] {
    archive.load_from(path);
    return archive.try_read(kConfigKey, text) && text.isString();
  });
  if (!has_config) {
    throw ConfigError(path + ": not a morne network (no " + std::string(kConfigKey) + ")");
  }
  const nlohmann::json config_json = nlohmann::json::parse(text.toStringRef(), nullptr, false);
  const NetworkConfig config = networkConfigFromJson(config_json, path);
  const int format = config_json.at("format").get<int>();
  if (config.encoder_version != kEncoderVersion) {
    throw ConfigError(path + ": made with encoder version " +
                      std::to_string(config.encoder_version) + ", this morne encodes version " +
                      std::to_string(kEncoderVersion));
  }
  PolicyValueNet net(config);
  readArchive(path, "weights do not match the config", [&] {
    net->load(archive);
    return true;
  });
  checkFiniteWeights(net, path);
  torch::IValue stored;
  if (archive.try_read(kChecksumKey, stored) && stored.isString()) {
    if (stored.toStringRef() != hex64(weightsChecksum(net))) {
      throw ConfigError(path + ": the weights do not match their checksum (stored " +
                        stored.toStringRef() + ", computed " + hex64(weightsChecksum(net)) +
                        "); the file is damaged");
    }
  } else if (format >= 2) {
    throw ConfigError(path + ": no weights checksum; the file is damaged");
  }
  return {config, net};
}

}  // namespace

std::unique_ptr<Network> Network::create(const NetworkConfig& config, uint64_t seed) {
  return wrapNetwork(config, makePolicyValueNet(config, seed));
}

std::unique_ptr<Network> Network::load(const std::string& path) {
  auto [config, net] = loadPolicyValueNet(path);
  return wrapNetwork(config, std::move(net));
}

std::unique_ptr<Network> Network::average(std::span<const std::string> paths,
                                          std::span<const double> weights) {
  if (paths.empty() || paths.size() != weights.size())
    throw ConfigError("an average of networks needs one weight per network, at least one");
  double total = 0;
  for (double w : weights) {
    if (!(w > 0)) throw ConfigError("an average of networks takes positive weights");
    total += w;
  }
  auto [config, sum] = loadPolicyValueNet(paths[0]);
  const std::string shape = networkConfigJson(config).dump();
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> into;
  for (const auto& [name, tensor] : namedTensors(sum)) into.push_back(tensor);
  for (size_t k = 0; k < paths.size(); ++k) {
    const double share = weights[k] / total;
    if (k == 0) {
      for (torch::Tensor& t : into)
        if (t.is_floating_point()) t.mul_(share);
      continue;
    }
    auto [other_config, other] = loadPolicyValueNet(paths[k]);
    other_config.provenance = config.provenance;
    if (networkConfigJson(other_config).dump() != shape)
      throw ConfigError(paths[k] + ": another network's shape than " + paths[0] + "'s");
    const auto tensors = namedTensors(other);
    for (size_t i = 0; i < into.size(); ++i)
      if (into[i].is_floating_point()) into[i].add_(tensors[i].second, share);
  }
  return wrapNetwork(config, std::move(sum));
}

void configureTorchRuntime(int threads) {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  if (auto f = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    f(1);
  at::set_num_threads(std::max(1, threads));
}

std::string torchRuntimeText() {
  return std::string("LibTorch ") + TORCH_VERSION + ", " +
         (torch::cuda::is_available() ? "CUDA available" : "CPU") + ", " +
         std::to_string(at::get_num_threads()) + " intra-op thread(s)";
}

// --- the learner (nn/learner.h) ---

namespace {

constexpr const char* kCheckpointKey = "morne_checkpoint";
// Rows per forward pass of the batch-norm calibration.
constexpr int64_t kCalibrationBatch = 256;

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
    total.backward();
    double loss = total.item<double>();
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
    const auto [logits, value] = net->forward(t.planes, t.globals);
    LossReport r = lossesOf(logits, value, t).report;
    r.weight_norm = weightNorm();
    return r;
  }

  void setCalibrationRows(const TrainingBatch& rows) override {
    calibration_ = rows.size > 0 ? std::optional(tensorsOf(rows, net_config_)) : std::nullopt;
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
    if (calibration_) {
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
      const int64_t rows = calibration_->planes.size(0);
      for (int64_t first = 0; first < rows; first += kCalibrationBatch) {
        const int64_t n = std::min(kCalibrationBatch, rows - first);
        copy->forward(calibration_->planes.narrow(0, first, n),
                      calibration_->globals.narrow(0, first, n));
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
    const torch::Tensor figures = torch::tensor(
        {static_cast<float>(rows), static_cast<float>(r.policy_loss * rows),
         static_cast<float>(r.policy_baseline * rows), static_cast<float>(r.policy_top1 * rows),
         static_cast<float>(r.value_loss * rows), static_cast<float>(r.value_baseline * rows),
         static_cast<float>(r.value_sign * rows)});
    std::vector<torch::Tensor> pieces = flatViews(grads);
    pieces.push_back(figures);
    torch::Tensor flat = torch::cat(pieces).contiguous();
    group_->sum(flat.data_ptr<float>(), static_cast<size_t>(flat.numel()));
    const int64_t n = flat.numel() - figures.numel();
    torch::Tensor sums = flat.narrow(0, n, figures.numel());
    const auto total_rows = sums[0].item<double>();
    auto mean = [&](int k) { return sums[k].item<double>() / total_rows; };
    r.rows = static_cast<int>(total_rows);
    r.policy_loss = mean(1);
    r.policy_baseline = mean(2);
    r.policy_top1 = mean(3);
    r.value_loss = mean(4);
    r.value_baseline = mean(5);
    r.value_sign = mean(6);
    torch::Tensor mean_grads = flat.narrow(0, 0, n) / static_cast<float>(group_->size());
    torch::NoGradGuard no_grad;
    scatterInto(mean_grads, grads);
    return r.policy_loss + config_.value_weight * r.value_loss;
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
  std::optional<BatchTensors> calibration_;
  PolicyValueNet evaluation_{nullptr};  // evaluationNetwork() of step evaluation_step_
  int64_t evaluation_step_ = -1;
  ProcessGroup* group_ = nullptr;  // of a data-parallel learner
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
