#pragma once
// The options shared by `morne train` and `morne loop`: the training settings
// (training/train_run.h) and where the network comes from, one row each (cli/option_table.h).

#include <memory>
#include <span>
#include <string>

#include "cli/option_table.h"
#include "nn/learner.h"
#include "training/train_run.h"

namespace morne::cli {

// Where the network comes from: a file, or a fresh one for the scenario.
struct NetworkSource {
  std::string net;  // a network file (empty: fresh)
  int blocks = 4;
  int channels = 32;
  int value_hidden = 64;
  uint64_t net_seed = 1;
};

std::span<const OptionRow<training::TrainSettings>> trainOptionRows();
std::span<const OptionRow<NetworkSource>> networkOptionRows();

// A learner on the network of `source`: its file, or a fresh network for `scenario` (a
// built-in name or a scenario file). Throws as Network::load and loadScenario.
std::unique_ptr<nn::Learner> makeLearner(const NetworkSource& source, const std::string& scenario,
                                         const nn::LearnerConfig& config);

// The scenario of the first shard of the settings' data folders.
std::string dataScenario(const training::TrainSettings& settings);

}  // namespace morne::cli
