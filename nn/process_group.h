#pragma once
// The ranks of a data-parallel learner and the collectives it needs, behind a LibTorch-free
// facade: LibTorch's own distributed layer, c10d with the Gloo backend, in
// nn/torch/gloo_group.cpp. Every rank calls every collective in the same order; a rank that
// dies makes the others' next collective throw.

#include <cstddef>
#include <memory>
#include <string>

namespace morne::nn {

// Where the ranks meet: a store that every rank reaches, and this rank's place.
struct GroupAddress {
  int rank = 0;
  int size = 1;
  // "tcp://HOST:PORT" (rank 0 listens there, the others connect) or "file://PATH" (a file on
  // a filesystem all ranks share; it must not exist when the group starts).
  std::string store;
  // The network interface this rank's Gloo connections use (empty: the address of the host's
  // name).
  std::string interface;
  int timeout_seconds = 600;  // for the group to form, and for any one collective
};

class ProcessGroup {
 public:
  // Forms the group: returns once all `size` ranks have joined. Throws ConfigError for a bad
  // address, Error when the group cannot form within the timeout.
  static std::unique_ptr<ProcessGroup> connect(const GroupAddress& address);

  virtual ~ProcessGroup() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Replaces data[0 .. n) on every rank by its sum over the ranks.
  virtual void sum(float* data, size_t n) = 0;

  // Replaces data[0 .. n) on every rank by rank 0's.
  virtual void broadcast(float* data, size_t n) = 0;

  // Replaces `text` on every rank by rank 0's.
  virtual void broadcastText(std::string& text) = 0;
};

}  // namespace morne::nn
