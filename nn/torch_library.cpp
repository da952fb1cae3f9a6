// Loads libmorne_torch.so (nn/torch_library.h) and defines the factories of nn/network.h,
// nn/learner.h and nn/process_group.h over its entry points.

#include "nn/torch_library.h"

#include <dlfcn.h>
#include <malloc.h>

#include <atomic>
#include <mutex>
#include <string>

#include "env/error.h"

namespace morne::nn {

namespace {

std::atomic<const TorchEntryPoints*> loaded_entry_points{nullptr};
std::mutex loading;
int threads_asked = 0;  // by configureTorchRuntime before the library was loaded (0: none)

std::string loaderError() {
  const char* reason = dlerror();
  return reason ? reason : "no reason given";
}

const TorchEntryPoints& loadLibrary() {
  const std::string what =
      std::string(kTorchLibrary) + " (networks and their training, over LibTorch)";
  void* library = dlopen(kTorchLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    throw ConfigError("cannot load " + what +
                      ", which the build puts beside the morne binary: " + loaderError());
  }
  using EntryPointsFunction = const TorchEntryPoints* (*)();
  const auto entry = reinterpret_cast<EntryPointsFunction>(dlsym(library, kTorchEntryPointsSymbol));
  if (!entry) throw ConfigError(what + ": no " + kTorchEntryPointsSymbol + ": " + loaderError());
  const TorchEntryPoints* table = entry();
  if (table->layout != kTorchEntryPointsLayout) {
    throw ConfigError(what + " is of another build than this program (layout " +
                      std::to_string(table->layout) + ", this program's " +
                      std::to_string(kTorchEntryPointsLayout) + "): build them together");
  }
  return *table;
}

}  // namespace

const TorchEntryPoints& torchEntryPoints() {
  if (const TorchEntryPoints* table = loaded_entry_points.load(std::memory_order_acquire))
    return *table;
  std::lock_guard lock(loading);
  if (const TorchEntryPoints* table = loaded_entry_points.load(std::memory_order_relaxed))
    return *table;
  const TorchEntryPoints& table = loadLibrary();
  if (threads_asked > 0) table.set_threads(threads_asked);
  loaded_entry_points.store(&table, std::memory_order_release);
  return table;
}

bool torchLoaded() { return loaded_entry_points.load(std::memory_order_acquire) != nullptr; }

void configureTorchRuntime(int threads) {
  // glibc malloc keeps buffers up to 32 MB (activations) instead of mapping them anew on every
  // forward pass, and returns memory to the system only past 256 MB free.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  std::lock_guard lock(loading);
  if (const TorchEntryPoints* table = loaded_entry_points.load(std::memory_order_relaxed))
    table->set_threads(threads);
  else
    threads_asked = threads;
}

std::string torchRuntimeText() { return torchEntryPoints().runtime_text(); }

std::unique_ptr<Network> Network::create(const NetworkConfig& config, uint64_t seed) {
  return torchEntryPoints().create_network(config, seed);
}

std::unique_ptr<Network> Network::load(const std::string& path) {
  return torchEntryPoints().load_network(path);
}

std::unique_ptr<Network> Network::loadAsAnyMap(const std::string& path) {
  return torchEntryPoints().load_network_as_any_map(path);
}

std::unique_ptr<Network> Network::average(std::span<const std::string> paths,
                                          std::span<const double> weights) {
  return torchEntryPoints().average_networks(paths, weights);
}

std::unique_ptr<Learner> Learner::create(const NetworkConfig& net, uint64_t seed,
                                         const LearnerConfig& config) {
  return torchEntryPoints().create_learner(net, seed, config);
}

std::unique_ptr<Learner> Learner::fromFile(const std::string& path, const LearnerConfig& config) {
  return torchEntryPoints().learner_from_file(path, config);
}

double rawTrainingRate(const NetworkConfig& net, const TrainingBatch& batch,
                       const LearnerConfig& config, double seconds) {
  return torchEntryPoints().raw_training_rate(net, batch, config, seconds);
}

std::unique_ptr<ProcessGroup> ProcessGroup::connect(const GroupAddress& address) {
  return torchEntryPoints().connect_group(address);
}

}  // namespace morne::nn
