#include "nn/measured_group.h"

namespace morne::nn {

void MeasuredGroup::sum(float* data, size_t n) {
  const auto start = std::chrono::steady_clock::now();
  inner_.sum(data, n);
  totals_.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++totals_.sums;
  totals_.floats += static_cast<int64_t>(n);
}

double ringBytesPerRank(int64_t floats, int ranks) {
  if (ranks < 2) return 0;
  return 2.0 * (ranks - 1) / ranks * 4.0 * static_cast<double>(floats);
}

}  // namespace morne::nn
