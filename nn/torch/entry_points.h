#pragma once
// The functions behind the entry points of libmorne_torch.so (nn/torch_library.h), each the
// LibTorch side of the factory of nn/network.h, nn/learner.h or nn/process_group.h it is named
// after, and defined beside the code it runs (network.cpp, learner.cpp, gloo_group.cpp);
// entry_points.cpp lists them in the table. Included only by nn/torch/ sources.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "nn/learner.h"
#include "nn/network.h"
#include "nn/process_group.h"

namespace morne::nn {

std::unique_ptr<Network> createTorchNetwork(const NetworkConfig& config, uint64_t seed);
std::unique_ptr<Network> loadTorchNetwork(const std::string& path);
std::unique_ptr<Network> loadTorchNetworkAsAnyMap(const std::string& path);
std::unique_ptr<Network> averageTorchNetworks(std::span<const std::string> paths,
                                              std::span<const double> weights);
// LibTorch's intra-op threads (at least 1), and OpenBLAS kept to one thread of its own.
void setTorchThreads(int threads);
std::string describeTorchRuntime();
std::unique_ptr<Learner> createTorchLearner(const NetworkConfig& net, uint64_t seed,
                                            const LearnerConfig& config);
std::unique_ptr<Learner> torchLearnerFromFile(const std::string& path, const LearnerConfig& config);
double torchTrainingRate(const NetworkConfig& net, const TrainingBatch& batch,
                         const LearnerConfig& config, double seconds);
std::unique_ptr<ProcessGroup> connectGlooGroup(const GroupAddress& address);

}  // namespace morne::nn
