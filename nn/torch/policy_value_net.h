#pragma once
// The policy-value network as LibTorch modules (nn/network.h describes the architecture).
// Internal to nn/torch/: included by its sources only (cmake/check_layers.cmake), which include
// LibTorch anyway, so it costs no other file LibTorch's headers.

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>

#include "nn/network.h"

namespace morne::nn {

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
    torch::Tensor x = stem_bn(stem(planes)) + globals_in(globals).unsqueeze(-1).unsqueeze(-1);
    x = tower->forward(torch::relu(x));
    const torch::Tensor pooled = x.mean({2, 3});
    const torch::Tensor policy = torch::cat({policy_conv(x).flatten(1), pass_fc(pooled)}, 1);
    const torch::Tensor value =
        torch::tanh(value_fc2(torch::relu(value_fc1(torch::cat({pooled, globals}, 1))))).squeeze(1);
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

// Writes the archive `fill` builds to `path` durably: a temporary name, synced, then renamed
// (an interruption leaves the previous file whole). Throws IoError naming `what` and `path`.
void saveArchiveDurably(const std::string& path, const std::string& what,
                        const std::function<void(torch::serialize::OutputArchive&)>& fill);

// The network facade over `net` (eval mode), as Network::create and Network::load give it.
std::unique_ptr<Network> wrapNetwork(const NetworkConfig& config, PolicyValueNet net);

// A fresh network of `config` with weights drawn from `seed`.
PolicyValueNet makePolicyValueNet(const NetworkConfig& config, uint64_t seed);

// The modules of the network saved at `path`, with its config; throws as Network::load.
std::pair<NetworkConfig, PolicyValueNet> loadPolicyValueNet(const std::string& path);

}  // namespace morne::nn
