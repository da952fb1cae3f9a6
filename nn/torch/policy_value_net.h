#pragma once
// The policy-value network as LibTorch modules (nn/network.h describes it), and what the
// network (nn/torch/network.cpp) and its learner (nn/torch/learner.cpp) share: making, loading
// and saving it. Included only by nn/torch/ sources.

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "env/error.h"
#include "nn/network.h"

namespace morne::nn {

namespace tnn = torch::nn;

struct ResidualBlockImpl : tnn::Module {
  explicit ResidualBlockImpl(int channels);
  // The block's output; with a defined `mask` [N, 1, H, W], every activation is multiplied by
  // it, so that cells off the map stay 0 and reach no neighbour.
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask = {});

  tnn::Conv2d conv1;
  tnn::BatchNorm2d bn1;
  tnn::Conv2d conv2;
  tnn::BatchNorm2d bn2;
};
TORCH_MODULE(ResidualBlock);

// What the network computes for a batch: policy logits [N, P] and value [N]; with `aux`, the
// auxiliary heads' outputs (undefined tensors otherwise): margin [N], control [N, H * W],
// short_value [N, kShortValueOutputs].
struct NetOutputs {
  torch::Tensor policy, value, margin, control, short_value;
};

struct PolicyValueNetImpl : tnn::Module {
  explicit PolicyValueNetImpl(const NetworkConfig& c);

  // The policy logits and the value (what the agents use).
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& planes,
                                                  const torch::Tensor& globals);
  // Every head; the auxiliary ones only when `aux` and the network has them.
  NetOutputs outputs(const torch::Tensor& planes, const torch::Tensor& globals, bool aux);

  tnn::Conv2d stem;
  tnn::BatchNorm2d stem_bn;
  tnn::Linear globals_in;
  tnn::Sequential tower;
  tnn::Conv2d policy_conv;
  tnn::Linear pass_fc;
  tnn::Linear value_fc1;
  tnn::Linear value_fc2;
  tnn::Linear margin_fc{nullptr};       // of NetworkConfig::aux_heads
  tnn::Linear short_value_fc{nullptr};  // ...
  tnn::Conv2d control_conv{nullptr};    // ...
  bool masked;  // an any-map network: the trunk and the pooling see the map's hexes only
};
TORCH_MODULE(PolicyValueNet);

// Every parameter and buffer of the network by name, in registration order.
std::vector<std::pair<std::string, torch::Tensor>> namedTensors(const PolicyValueNet& net);

// A fresh network of `config`, its weights drawn from `seed`.
PolicyValueNet makePolicyValueNet(const NetworkConfig& config, uint64_t seed);
// The network saved at `path`, with its config; throws as Network::load.
std::pair<NetworkConfig, PolicyValueNet> loadPolicyValueNet(const std::string& path);
// The facade of nn/network.h over `net`.
std::unique_ptr<Network> wrapNetwork(const NetworkConfig& config, PolicyValueNet net);

// Writes the archive `fill` builds to `path` durably: built in memory, then written under a
// temporary name, synced and renamed (an interruption or a full disk leaves the previous file
// whole and no temporary file). LibTorch's own file writer is not used: on a full disk it
// ended the process ("terminate called after throwing ... c10::Error", SIGABRT). Throws
// IoError naming `what` and `path`.
void saveArchiveDurably(const std::string& path, const std::string& what,
                        const std::function<void(torch::serialize::OutputArchive&)>& fill);

// The first line of a LibTorch message (a damaged archive's parser error runs to many lines).
std::string firstLine(const char* text);

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

}  // namespace morne::nn
