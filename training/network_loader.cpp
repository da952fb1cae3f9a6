#include "training/network_loader.h"

#include "nn/cpu_features.h"
#include "nn/network.h"
#include "nn/network_evaluator.h"

namespace morne::training {

std::unique_ptr<mcts::BatchEvaluator> loadNetworkEvaluator(const agents::NetworkLoad& what) {
  std::unique_ptr<nn::Network> network = nn::Network::load(what.model);
  const bool bf16 = what.precision == agents::NetworkPrecision::kBFloat16 ||
                    (what.precision == agents::NetworkPrecision::kAuto && nn::cpuHasBFloat16());
  if (bf16) network->useBFloat16();
  return nn::makeNetworkEvaluator(std::move(network), what.fixed_batch);
}

}  // namespace morne::training
