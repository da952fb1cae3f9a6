#include "training/network_source.h"

#include "env/io/scenario_library.h"
#include "nn/network.h"
#include "training/training_data.h"

namespace morne::training {

std::unique_ptr<nn::Learner> makeLearner(const NetworkSource& source, const std::string& scenario,
                                         const nn::LearnerConfig& config) {
  if (!source.net.empty()) return nn::Learner::fromFile(source.net, config);
  nn::NetworkConfig c = source.any_map ? nn::anyMapNetworkConfig()
                                       : nn::networkConfigFor(*env::loadScenario(scenario));
  c.blocks = source.blocks;
  c.channels = source.channels;
  c.value_hidden = source.value_hidden;
  return nn::Learner::create(c, source.net_seed, config);
}

std::string dataScenario(const TrainSettings& settings) {
  return indexShards(settings.data_dirs, settings.validation_permille, 1).scenario;
}

}  // namespace morne::training
