#pragma once
// The LibTorch half of nn/ (nn/torch/) is a shared library of its own, libmorne_torch.so,
// loaded the first time a program makes, loads or trains a network. A program that plays
// without one (rule and search agents, `morne play`, `morne help`, the server, the tests of the
// binary) never loads LibTorch and its 280 libraries: it starts in milliseconds where loading
// them took about a second of CPU (five under AddressSanitizer).
//
// The library hands over the table below; the factories of nn/network.h, nn/learner.h and
// nn/process_group.h call through it (nn/torch_library.cpp). The library is found as any
// shared library the program links: by the run path the build gives each program (the build
// folder's top, beside `morne`), then LD_LIBRARY_PATH.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "nn/learner.h"
#include "nn/network.h"
#include "nn/process_group.h"

namespace morne::nn {

// The file name of the library.
inline constexpr const char* kTorchLibrary = "libmorne_torch.so";

// The entry points of libmorne_torch.so, each the LibTorch side of the factory of the same
// name. `layout` is kTorchEntryPointsLayout of the library's build: a library built from
// other sources than the program is refused.
struct TorchEntryPoints {
  uint64_t layout;
  std::unique_ptr<Network> (*create_network)(const NetworkConfig& config, uint64_t seed);
  std::unique_ptr<Network> (*load_network)(const std::string& path);
  std::unique_ptr<Network> (*load_network_as_any_map)(const std::string& path);
  std::unique_ptr<Network> (*average_networks)(std::span<const std::string> paths,
                                               std::span<const double> weights);
  void (*set_threads)(int threads);
  std::string (*runtime_text)();
  std::unique_ptr<Learner> (*create_learner)(const NetworkConfig& net, uint64_t seed,
                                             const LearnerConfig& config);
  std::unique_ptr<Learner> (*learner_from_file)(const std::string& path,
                                                const LearnerConfig& config);
  double (*raw_training_rate)(const NetworkConfig& net, const TrainingBatch& batch,
                              const LearnerConfig& config, double seconds);
  std::unique_ptr<ProcessGroup> (*connect_group)(const GroupAddress& address);
};

// The sizes of the table and of the configs it passes: a library whose build differs in one of
// them is refused rather than called with another layout.
inline constexpr uint64_t kTorchEntryPointsLayout =
    (uint64_t{sizeof(TorchEntryPoints)} << 48) | (uint64_t{sizeof(NetworkConfig)} << 32) |
    (uint64_t{sizeof(LearnerConfig)} << 16) | uint64_t{sizeof(TrainingBatch)};

// The name of the function libmorne_torch.so exports: `const TorchEntryPoints* NAME()`.
inline constexpr const char* kTorchEntryPointsSymbol = "morne_torch_entry_points";

// The library's entry points, loading it on the first call (thread-safe; it stays loaded).
// Throws ConfigError naming the library and the loader's reason when it cannot be loaded or
// is of another build.
const TorchEntryPoints& torchEntryPoints();

// Whether this process has loaded libmorne_torch.so (and so LibTorch).
bool torchLoaded();

}  // namespace morne::nn
