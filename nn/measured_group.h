#pragma once
// A process group that counts what passes through another (nn/process_group.h): the gradient
// sums of the data-parallel learner, their floats and the time they take, so that a run can
// say what its ranks' exchanges cost (docs/scale-out.md, "Across hosts").

#include <chrono>
#include <cstdint>

#include "nn/process_group.h"

namespace morne::nn {

// What the sums have cost so far.
struct ExchangeTotals {
  int64_t sums = 0;    // calls of sum()
  int64_t floats = 0;  // floats summed, over those calls
  double seconds = 0;  // wall time inside them
};

class MeasuredGroup : public ProcessGroup {
 public:
  // Counts the sums of `inner`, which must outlive it.
  explicit MeasuredGroup(ProcessGroup& inner) : inner_(inner) {}

  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  void sum(float* data, size_t n) override;
  void broadcast(float* data, size_t n) override { inner_.broadcast(data, n); }
  void broadcastText(std::string& text) override { inner_.broadcastText(text); }

  const ExchangeTotals& totals() const { return totals_; }

 private:
  ProcessGroup& inner_;
  ExchangeTotals totals_;
};

// The bytes one rank sends per sum of `floats` floats among `ranks` ranks with a ring
// allreduce (a reduce-scatter then an all-gather, each moving (ranks - 1) / ranks of the data),
// the algorithm Gloo uses for large sums: 2 (ranks - 1) / ranks x 4 bytes a float.
double ringBytesPerRank(int64_t floats, int ranks);

}  // namespace morne::nn
