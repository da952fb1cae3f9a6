// The policy-value network (nn/torch/policy_value_net.h) behind the facade nn/network.h:
// create, load, save, evaluate, average.

#include <ATen/autocast_mode.h>
#include <dlfcn.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "env/check.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "nn/archive_check.h"
#include "nn/cpu_features.h"
#include "nn/torch/entry_points.h"
#include "nn/torch/policy_value_net.h"

namespace morne::nn {

ResidualBlockImpl::ResidualBlockImpl(int channels)
    : conv1(register_module(
          "conv1", tnn::Conv2d(tnn::Conv2dOptions(channels, channels, 3).padding(1).bias(false)))),
      bn1(register_module("bn1", tnn::BatchNorm2d(channels))),
      conv2(register_module(
          "conv2", tnn::Conv2d(tnn::Conv2dOptions(channels, channels, 3).padding(1).bias(false)))),
      bn2(register_module("bn2", tnn::BatchNorm2d(channels))) {}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x, const torch::Tensor& mask) {
  torch::Tensor y = torch::relu(bn1(conv1(x)));
  if (mask.defined()) y = y * mask;
  y = torch::relu(x + bn2(conv2(y)));
  return mask.defined() ? y * mask : y;
}

namespace {

// `layer` applied to each row of `x` on its own: in inference, a multiply and a sum over each
// row, so that a row's result does not depend on its place in the batch (the matrix product of
// a batch blocks rows in groups, and rows of different groups are summed in different orders:
// the same position gave other bits in slot 6 than in slot 0). Training keeps the product.
torch::Tensor linearByRow(tnn::Linear& layer, const torch::Tensor& x, bool training) {
  if (training) return layer(x);
  return (x.unsqueeze(1) * layer->weight.unsqueeze(0)).sum(-1) + layer->bias;
}

}  // namespace

PolicyValueNetImpl::PolicyValueNetImpl(const NetworkConfig& c)
    : stem(register_module(
          "stem",
          tnn::Conv2d(tnn::Conv2dOptions(c.input.planes, c.channels, 3).padding(1).bias(false)))),
      stem_bn(register_module("stem_bn", tnn::BatchNorm2d(c.channels))),
      globals_in(register_module("globals_in", tnn::Linear(c.input.globals, c.channels))),
      tower(register_module("tower", tnn::Sequential())),
      policy_conv(register_module("policy_conv",
                                  tnn::Conv2d(tnn::Conv2dOptions(c.channels, c.policy_planes, 1)))),
      pass_fc(register_module("pass_fc", tnn::Linear(c.channels, 2))),
      value_fc1(
          register_module("value_fc1", tnn::Linear(c.channels + c.input.globals, c.value_hidden))),
      value_fc2(register_module("value_fc2", tnn::Linear(c.value_hidden, 1))),
      masked(c.anyMap()) {
  for (int b = 0; b < c.blocks; ++b) tower->push_back(ResidualBlock(c.channels));
  if (c.aux_heads) {
    margin_fc = register_module("margin_fc", tnn::Linear(c.value_hidden, 1));
    short_value_fc =
        register_module("short_value_fc", tnn::Linear(c.value_hidden, kShortValueOutputs));
    control_conv =
        register_module("control_conv", tnn::Conv2d(tnn::Conv2dOptions(c.channels, 1, 1)));
  }
}

std::pair<torch::Tensor, torch::Tensor> PolicyValueNetImpl::forward(const torch::Tensor& planes,
                                                                    const torch::Tensor& globals) {
  NetOutputs o = outputs(planes, globals, false);
  return {o.policy, o.value};
}

NetOutputs PolicyValueNetImpl::outputs(const torch::Tensor& planes, const torch::Tensor& globals,
                                       bool aux) {
  const bool t = is_training();
  // An any-map network sees nothing of the cells off the map: its input, every activation of
  // its trunk and its pooling are masked by the on_map plane.
  const torch::Tensor mask = masked ? planes.narrow(1, kOnMapPlane, 1) : torch::Tensor();
  auto onMap = [&](const torch::Tensor& y) { return masked ? y * mask : y; };
  torch::Tensor x = stem_bn(stem(onMap(planes))) +
                    linearByRow(globals_in, globals, t).unsqueeze(-1).unsqueeze(-1);
  x = onMap(torch::relu(x));
  for (auto& block : *tower) x = block.get<ResidualBlock>()->forward(x, mask);
  const torch::Tensor pooled =
      masked ? x.sum({2, 3}) / mask.sum({2, 3}).clamp_min(1) : x.mean({2, 3});
  NetOutputs o;
  o.policy = torch::cat({policy_conv(x).flatten(1), linearByRow(pass_fc, pooled, t)}, 1);
  const torch::Tensor hidden =
      torch::relu(linearByRow(value_fc1, torch::cat({pooled, globals}, 1), t));
  o.value = torch::tanh(linearByRow(value_fc2, hidden, t)).squeeze(1);
  if (aux && !margin_fc.is_empty()) {
    o.margin = margin_fc(hidden).squeeze(1);
    o.short_value = torch::tanh(short_value_fc(hidden));
    o.control = torch::tanh(control_conv(x)).flatten(1);
  }
  return o;
}

namespace {

constexpr const char* kConfigKey = "morne_network_config";
constexpr const char* kChecksumKey = "morne_weights_checksum";

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

}  // namespace

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

std::string firstLine(const char* text) {
  const std::string s(text);
  const size_t begin = std::min(s.find_first_not_of(" \t\r\n"), s.size());
  return s.substr(begin, std::min(s.find('\n', begin) - begin, size_t{300}));
}

std::vector<std::pair<std::string, torch::Tensor>> namedTensors(const PolicyValueNet& net) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& item : net->named_parameters(true)) out.emplace_back(item.key(), item.value());
  for (const auto& item : net->named_buffers(true)) out.emplace_back(item.key(), item.value());
  return out;
}

namespace {

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

  void evaluate(int batch, const ObservationShape& in, std::span<const float> planes,
                std::span<const float> globals, std::span<float> policy_logits,
                std::span<float> values) override {
    checkShape(in);
    const auto n = static_cast<size_t>(batch);
    const size_t outputs = n * static_cast<size_t>(config_.policySize(in.height, in.width));
    MORNE_CHECK(planes.size() == n * static_cast<size_t>(in.planeSize()) &&
                    globals.size() == n * static_cast<size_t>(in.globals) &&
                    policy_logits.size() == outputs && values.size() == n,
                "network inputs or outputs of another size than the batch");
    torch::InferenceMode guard;
    const auto [p, g] = inputTensors(batch, in, planes, globals);
    const auto [policy, value] = [&] {
      const BFloat16Scope arithmetic(bfloat16_);
      return net_->forward(p, g);
    }();
    copyFloats(policy, policy_logits);
    copyFloats(value, values);
    bool finite = true;
    for (size_t i = 0; i < outputs; ++i) finite = finite && std::isfinite(policy_logits[i]);
    for (size_t i = 0; i < static_cast<size_t>(batch); ++i)
      finite = finite && std::isfinite(values[i]);
    if (!finite) {
      throw Error("the network gave NaN or infinite outputs for a batch of " +
                  std::to_string(batch) + " positions (damaged weights or inputs)");
    }
  }

  void evaluateAuxiliary(int batch, const ObservationShape& in, std::span<const float> planes,
                         std::span<const float> globals, std::span<float> margin,
                         std::span<float> control, std::span<float> short_value) override {
    checkShape(in);
    if (!config_.aux_heads)
      throw ConfigError("this network has no auxiliary heads (made before they existed)");
    const auto n = static_cast<size_t>(batch);
    MORNE_CHECK(planes.size() == n * static_cast<size_t>(in.planeSize()) &&
                    globals.size() == n * static_cast<size_t>(in.globals) && margin.size() == n &&
                    control.size() == n * static_cast<size_t>(in.height * in.width) &&
                    short_value.size() == n * kShortValueOutputs,
                "network inputs or outputs of another size than the batch");
    torch::InferenceMode guard;
    const auto [p, g] = inputTensors(batch, in, planes, globals);
    const NetOutputs o = [&] {
      const BFloat16Scope arithmetic(bfloat16_);
      return net_->outputs(p, g, true);
    }();
    copyFloats(o.margin, margin);
    copyFloats(o.control, control);
    copyFloats(o.short_value, short_value);
  }

  void useBFloat16() override {
    if (!cpuHasBFloat16()) {
      throw ConfigError(
          "bf16: this CPU has no AVX-512 BF16 instructions (LibTorch would emulate them, slower "
          "than fp32): use precision=fp32");
    }
    bfloat16_ = true;
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
  // LibTorch's CPU autocast (to bfloat16) on this thread while it lives, when `on`. Its cache of
  // cast weights is emptied on the way out: it is keyed by the tensors' addresses, which a
  // network loaded later may reuse.
  struct BFloat16Scope {
    explicit BFloat16Scope(bool bfloat16) : on(bfloat16) {
      if (on) at::autocast::set_cpu_enabled(true);
    }
    ~BFloat16Scope() {
      if (!on) return;
      at::autocast::set_cpu_enabled(false);
      at::autocast::clear_cache();
    }
    BFloat16Scope(const BFloat16Scope&) = delete;
    BFloat16Scope& operator=(const BFloat16Scope&) = delete;
    bool on;
  };

  // Copies `t` (float32 or, from autocast, bfloat16) into `into`, as many values as it holds.
  static void copyFloats(const torch::Tensor& t, std::span<float> into) {
    const torch::Tensor f = t.to(torch::kFloat).contiguous();
    std::memcpy(into.data(), f.data_ptr<float>(), into.size() * sizeof(float));
  }

  // The observations of `batch` positions as tensors over the caller's memory (from_blob needs
  // a non-const pointer; the tensors are only read).
  std::pair<torch::Tensor, torch::Tensor> inputTensors(int batch, const ObservationShape& in,
                                                       std::span<const float> planes,
                                                       std::span<const float> globals) const {
    return {torch::from_blob(const_cast<float*>(planes.data()),
                             {batch, in.planes, in.height, in.width}),
            torch::from_blob(const_cast<float*>(globals.data()), {batch, in.globals})};
  }

  // Precondition of evaluate(): observations of the network's planes and globals, on its own
  // grid unless it plays any map.
  void checkShape(const ObservationShape& in) const {
    const ObservationShape& own = config_.input;
    MORNE_CHECK(in.planes == own.planes && in.globals == own.globals && in.height > 0 &&
                    in.width > 0 &&
                    (config_.anyMap() || (in.height == own.height && in.width == own.width)),
                "observations of another shape than the network's");
  }

  NetworkConfig config_;
  PolicyValueNet net_;
  uint64_t checksum_;
  bool bfloat16_ = false;
};

}  // namespace

std::unique_ptr<Network> wrapNetwork(const NetworkConfig& config, PolicyValueNet net) {
  return std::make_unique<TorchNetwork>(config, std::move(net));
}

PolicyValueNet makePolicyValueNet(const NetworkConfig& config, uint64_t seed) {
  torch::manual_seed(seed);
  return PolicyValueNet(config);
}

namespace {

// The encoder version before this one: its observations are this version's less the globals
// at the end (handicap_mine), so its networks are upgraded on load.
constexpr int kUpgradableEncoderVersion = 2;

// `old` (of encoder version kUpgradableEncoderVersion, loaded from `path`) for this encoder:
// the globals added since enter the two layers that read the globals with weights 0, so the
// network computes what it did whatever their values.
std::pair<NetworkConfig, PolicyValueNet> upgradedEncoder(const NetworkConfig& old_config,
                                                         const PolicyValueNet& old,
                                                         const std::string& path) {
  NetworkConfig config = old_config;
  config.encoder_version = kEncoderVersion;
  config.input.globals = static_cast<int>(ObservationEncoder::globalNames().size());
  const int added = config.input.globals - old_config.input.globals;
  if (added != 1) {
    throw ConfigError(path + ": encoder version " + std::to_string(old_config.encoder_version) +
                      " with " + std::to_string(old_config.input.globals) +
                      " globals; that version has " + std::to_string(config.input.globals - 1));
  }
  PolicyValueNet net(config);
  net->masked = old->masked;
  torch::NoGradGuard no_grad;
  const auto from = namedTensors(old);
  const auto to = namedTensors(net);
  for (size_t i = 0; i < to.size(); ++i) {
    const auto& [name, tensor] = to[i];
    const torch::Tensor& source = from[i].second;
    if (name == "globals_in.weight" || name == "value_fc1.weight") {
      tensor.copy_(torch::cat({source, torch::zeros({source.size(0), added})}, 1));
    } else {
      tensor.copy_(source);
    }
  }
  return {config, net};
}

}  // namespace

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
  if (config.encoder_version != kEncoderVersion &&
      config.encoder_version != kUpgradableEncoderVersion) {
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
  if (config.encoder_version == kUpgradableEncoderVersion)
    return upgradedEncoder(config, net, path);
  return {config, net};
}

std::unique_ptr<Network> createTorchNetwork(const NetworkConfig& config, uint64_t seed) {
  return wrapNetwork(config, makePolicyValueNet(config, seed));
}

std::unique_ptr<Network> loadTorchNetwork(const std::string& path) {
  auto [config, net] = loadPolicyValueNet(path);
  return wrapNetwork(config, std::move(net));
}

std::unique_ptr<Network> loadTorchNetworkAsAnyMap(const std::string& path) {
  auto [config, net] = loadPolicyValueNet(path);
  if (config.anyMap()) throw ConfigError(path + ": already an any-map network");
  nlohmann::json provenance = nlohmann::json::parse(config.provenance, nullptr, false);
  if (!provenance.is_object())
    provenance = config.provenance.empty() ? nlohmann::json::object()
                                           : nlohmann::json{{"before", config.provenance}};
  provenance["any_map_from"] = {{"file", std::filesystem::path(path).filename().string()},
                                {"scenario", config.scenario}};
  config.provenance = provenance.dump();
  config.input.height = config.input.width = 0;
  config.scenario = kAnyScenario;
  net->masked = true;
  return wrapNetwork(config, std::move(net));
}

std::unique_ptr<Network> averageTorchNetworks(std::span<const std::string> paths,
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

void setTorchThreads(int threads) {
  if (auto f = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    f(1);
  at::set_num_threads(std::max(1, threads));
}

std::string describeTorchRuntime() {
  return std::string("LibTorch ") + TORCH_VERSION + ", " +
         (torch::cuda::is_available() ? "CUDA available" : "CPU") + ", " +
         std::to_string(at::get_num_threads()) + " intra-op thread(s)";
}

}  // namespace morne::nn
