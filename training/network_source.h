#pragma once
// Where the network of a training run comes from: a file, or a fresh one for the scenario
// (`morne train`, `morne loop`).

#include <cstdint>
#include <memory>
#include <string>

#include "nn/learner.h"
#include "nn/network.h"
#include "training/train_run.h"

namespace morne::training {

// A network file, or the size and seed of a fresh network.
struct NetworkSource {
  std::string net;  // a network file (empty: fresh)
  int blocks = nn::kDefaultNetworkSize.blocks;
  int channels = nn::kDefaultNetworkSize.channels;
  int value_hidden = nn::kDefaultNetworkSize.value_hidden;
  uint64_t net_seed = 1;
  bool any_map = false;  // a fresh any-map network (nn/network.h) instead of the scenario's
};

// A learner on the network of `source`: its file, or a fresh network for `scenario` (a
// built-in name or a scenario file). Throws as Network::load and loadScenario.
std::unique_ptr<nn::Learner> makeLearner(const NetworkSource& source, const std::string& scenario,
                                         const nn::LearnerConfig& config);

// The scenario of the first shard of the settings' data folders.
std::string dataScenario(const TrainSettings& settings);

}  // namespace morne::training
