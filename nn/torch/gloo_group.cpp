// The data-parallel learner's process group (nn/process_group.h) over LibTorch's c10d with the
// Gloo backend: a TCP or file store for the ranks to meet, then Gloo's TCP pairs between them.
#define USE_C10D_GLOO 1

#include <torch/torch.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include "env/error.h"
#include "nn/process_group.h"
#include "nn/torch/entry_points.h"

namespace morne::nn {

namespace {

// A collective's failure (a rank died, a timeout) as morne's own error.
template <class Work>
void finish(const Work& work, const char* what) {
  try {
    work->wait();
  } catch (const std::exception& e) {
    throw Error(std::string("data-parallel learner: ") + what + " failed: " + e.what() +
                " (did another rank stop?)");
  }
}

c10::intrusive_ptr<c10d::Store> makeStore(const GroupAddress& a) {
  const std::chrono::seconds timeout(a.timeout_seconds);
  if (a.store.rfind("file://", 0) == 0) {
    const std::string path = a.store.substr(7);
    if (path.empty()) throw ConfigError("--group " + a.store + ": no file path");
    return c10::make_intrusive<c10d::FileStore>(path, a.size);
  }
  if (a.store.rfind("tcp://", 0) == 0) {
    const std::string address = a.store.substr(6);
    const size_t colon = address.rfind(':');
    int port = 0;
    try {
      port = colon == std::string::npos ? 0 : std::stoi(address.substr(colon + 1));
    } catch (const std::exception&) {
    }
    if (colon == std::string::npos || colon == 0 || port <= 0 || port > 65535)
      throw ConfigError("--group " + a.store + ": give tcp://HOST:PORT with a port 1-65535");
    c10d::TCPStoreOptions o;
    o.port = static_cast<uint16_t>(port);
    o.isServer = a.rank == 0;
    o.numWorkers = a.size;
    o.timeout = timeout;
    try {
      return c10::make_intrusive<c10d::TCPStore>(address.substr(0, colon), o);
    } catch (const std::exception& e) {
      throw Error("data-parallel learner: rank " + std::to_string(a.rank) + " cannot " +
                  (a.rank == 0 ? "listen on " : "reach ") + a.store + ": " + e.what());
    }
  }
  throw ConfigError("--group " + a.store + ": give tcp://HOST:PORT or file://PATH");
}

class GlooGroup : public ProcessGroup {
 public:
  explicit GlooGroup(const GroupAddress& a) : rank_(a.rank), size_(a.size) {
    auto options = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(a.timeout_seconds));
    try {
      options->devices.push_back(
          a.interface.empty() ? c10d::ProcessGroupGloo::createDefaultDevice()
                              : c10d::ProcessGroupGloo::createDeviceForInterface(a.interface));
      options->threads = 1;
      group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(makeStore(a), a.rank, a.size, options);
    } catch (const morne::Error&) {
      throw;
    } catch (const std::exception& e) {
      throw Error("data-parallel learner: rank " + std::to_string(a.rank) + " of " +
                  std::to_string(a.size) + " could not join the group at " + a.store + ": " +
                  e.what());
    }
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void sum(float* data, size_t n) override {
    std::vector<at::Tensor> t{torch::from_blob(data, {static_cast<int64_t>(n)}, torch::kFloat)};
    finish(group_->allreduce(t), "a sum of gradients");
  }

  void broadcast(float* data, size_t n) override {
    std::vector<at::Tensor> t{torch::from_blob(data, {static_cast<int64_t>(n)}, torch::kFloat)};
    finish(group_->broadcast(t), "a broadcast of weights");
  }

  void broadcastText(std::string& text) override {
    int64_t size = static_cast<int64_t>(text.size());
    std::vector<at::Tensor> length{torch::from_blob(&size, {1}, torch::kLong)};
    finish(group_->broadcast(length), "a broadcast of the plan");
    text.resize(static_cast<size_t>(size));
    if (size == 0) return;
    std::vector<at::Tensor> bytes{torch::from_blob(text.data(), {size}, torch::kUInt8)};
    finish(group_->broadcast(bytes), "a broadcast of the plan");
  }

 private:
  int rank_, size_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

}  // namespace

std::unique_ptr<ProcessGroup> connectGlooGroup(const GroupAddress& a) {
  if (a.size < 1 || a.rank < 0 || a.rank >= a.size) {
    throw ConfigError("data-parallel learner: rank " + std::to_string(a.rank) + " of " +
                      std::to_string(a.size) + " ranks (a rank is 0 to ranks - 1)");
  }
  if (a.timeout_seconds < 1) throw ConfigError("data-parallel learner: a timeout of at least 1 s");
  return std::make_unique<GlooGroup>(a);
}

}  // namespace morne::nn
