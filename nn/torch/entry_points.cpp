// The one symbol libmorne_torch.so exports (nn/torch_library.h): the table of its entry points.

#include "nn/torch/entry_points.h"

#include "nn/torch_library.h"

extern "C" __attribute__((visibility("default"))) const morne::nn::TorchEntryPoints*
morne_torch_entry_points() {
  using namespace morne::nn;
  static const TorchEntryPoints table{
      .layout = kTorchEntryPointsLayout,
      .create_network = &createTorchNetwork,
      .load_network = &loadTorchNetwork,
      .load_network_as_any_map = &loadTorchNetworkAsAnyMap,
      .average_networks = &averageTorchNetworks,
      .set_threads = &setTorchThreads,
      .runtime_text = &describeTorchRuntime,
      .create_learner = &createTorchLearner,
      .learner_from_file = &torchLearnerFromFile,
      .raw_training_rate = &torchTrainingRate,
      .connect_group = &connectGlooGroup,
  };
  return &table;
}
