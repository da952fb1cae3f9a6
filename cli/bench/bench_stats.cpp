#include "cli/bench/bench_stats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/number_text.h"

namespace morne::cli {

Spread spreadOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {values.front(), median, values.back()};
}

std::vector<std::vector<double>> measureInterleaved(
    int repeats, const std::vector<std::function<double()>>& configs) {
  std::vector<std::vector<double>> out(configs.size());
  for (int r = 0; r < repeats; ++r) {
    for (size_t c = 0; c < configs.size(); ++c) out[c].push_back(configs[c]());
  }
  return out;
}

double unitsPerSecond(double seconds, const std::function<int64_t()>& work) {
  int64_t units = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    units += work();
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return static_cast<double>(units) / elapsed;
}

std::vector<double> roundRatios(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> out;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) out.push_back(a[i] / b[i]);
  return out;
}

std::string spreadRow(const std::string& label, const std::vector<double>& values, int digits) {
  const Spread s = spreadOf(values);
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-36s %12s %12s %12s", label.c_str(),
                core::fixedText(s.median, digits).c_str(), core::fixedText(s.min, digits).c_str(),
                core::fixedText(s.max, digits).c_str());
  return buf;
}

std::string spreadHeader(const std::string& label) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-38s %12s %12s %12s", label.c_str(), "median", "min", "max");
  return buf;
}

std::string loadText() {
  double load[3] = {0, 0, 0};
  const int got = getloadavg(load, 3);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (got < 3) return "load average unknown on " + std::to_string(cores) + " cores";
  return "load average " + core::fixedText(load[0], 2) + " " + core::fixedText(load[1], 2) + " " +
         core::fixedText(load[2], 2) + " on " + std::to_string(cores) + " cores";
}

}  // namespace morne::cli
