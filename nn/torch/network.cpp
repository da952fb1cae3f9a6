// The network behind the facade nn/network.h: create, load, save, evaluate.

#include <dlfcn.h>
#include <malloc.h>
#include <torch/version.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "env/check.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "nn/torch/policy_value_net.h"

namespace morne::nn {

namespace {

constexpr const char* kConfigKey = "morne_network_config";
constexpr const char* kChecksumKey = "morne_weights_checksum";
// Format 2 adds the weights checksum; format 1 files (without one) still load.
constexpr int kFormatVersion = 2;

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

nlohmann::json configJson(const NetworkConfig& c) {
  return {{"format", kFormatVersion},
          {"planes", c.input.planes},
          {"height", c.input.height},
          {"width", c.input.width},
          {"globals", c.input.globals},
          {"policy_planes", c.policy_planes},
          {"blocks", c.blocks},
          {"channels", c.channels},
          {"value_hidden", c.value_hidden},
          {"encoder_version", c.encoder_version},
          {"scenario", c.scenario}};
}

NetworkConfig configFromJson(const nlohmann::json& j, const std::string& path) {
  try {
    const int format = j.at("format").get<int>();
    if (format < 1 || format > kFormatVersion) {
      throw ConfigError(path + ": network format " + std::to_string(j.at("format").get<int>()) +
                        " is not one this morne reads (1.." + std::to_string(kFormatVersion) + ")");
    }
    NetworkConfig c;
    c.input = {j.at("planes").get<int>(), j.at("height").get<int>(), j.at("width").get<int>(),
               j.at("globals").get<int>()};
    c.policy_planes = j.at("policy_planes").get<int>();
    c.blocks = j.at("blocks").get<int>();
    c.channels = j.at("channels").get<int>();
    c.value_hidden = j.at("value_hidden").get<int>();
    c.encoder_version = j.at("encoder_version").get<int>();
    c.scenario = j.at("scenario").get<std::string>();
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(path + ": malformed network config: " + e.what());
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
      archive.write(kConfigKey, torch::IValue(configJson(config_).dump()));
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

 private:
  NetworkConfig config_;
  PolicyValueNet net_;
  uint64_t checksum_;
};

}  // namespace

void saveArchiveDurably(const std::string& path, const std::string& what,
                        const std::function<void(torch::serialize::OutputArchive&)>& fill) {
  const std::string tmp = path + ".tmp";
  try {
    torch::serialize::OutputArchive archive;
    fill(archive);
    archive.save_to(tmp);
  } catch (const c10::Error& e) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw IoError("cannot write " + what + " " + path + ": " + e.what_without_backtrace());
  }
  env::syncFile(tmp);
  env::renameDurably(tmp, path);
}

std::unique_ptr<Network> wrapNetwork(const NetworkConfig& config, PolicyValueNet net) {
  return std::make_unique<TorchNetwork>(config, std::move(net));
}

PolicyValueNet makePolicyValueNet(const NetworkConfig& config, uint64_t seed) {
  torch::manual_seed(seed);
  return PolicyValueNet(config);
}

std::unique_ptr<Network> Network::create(const NetworkConfig& config, uint64_t seed) {
  return wrapNetwork(config, makePolicyValueNet(config, seed));
}

std::pair<NetworkConfig, PolicyValueNet> loadPolicyValueNet(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw IoError("network " + path + ": " +
                  (std::filesystem::exists(path, ec) ? "not an ordinary file" : "no such file"));
  }
  torch::serialize::InputArchive archive;
  torch::IValue text;
  try {
    archive.load_from(path);
  } catch (const c10::Error& e) {
    throw ConfigError(path + ": not a morne network (" + e.what_without_backtrace() + ")");
  }
  if (!archive.try_read(kConfigKey, text) || !text.isString()) {
    throw ConfigError(path + ": not a morne network (no " + std::string(kConfigKey) + ")");
  }
  const nlohmann::json config_json = nlohmann::json::parse(text.toStringRef(), nullptr, false);
  const NetworkConfig config = configFromJson(config_json, path);
  const int format = config_json.at("format").get<int>();
  if (config.encoder_version != kEncoderVersion) {
    throw ConfigError(path + ": made with encoder version " +
                      std::to_string(config.encoder_version) + ", this morne encodes version " +
                      std::to_string(kEncoderVersion));
  }
  PolicyValueNet net(config);
  try {
    net->load(archive);
  } catch (const c10::Error& e) {
    throw ConfigError(path + ": weights do not match the config (" + e.what_without_backtrace() +
                      ")");
  }
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

std::unique_ptr<Network> Network::load(const std::string& path) {
  auto [config, net] = loadPolicyValueNet(path);
  return wrapNetwork(config, std::move(net));
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

}  // namespace morne::nn
