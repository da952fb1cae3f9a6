#pragma once
// How every `morne bench` target measures: each configuration is measured `repeats` times, the
// configurations in turn (A B C, A B C, ...) so that a change of load on the machine hits them
// alike; each figure is printed as median, min and max with the load average, and ratios are
// taken round by round between measurements of the same round.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace morne::cli {

struct Spread {
  double min = 0;
  double median = 0;
  double max = 0;
};

// Min, median and max of `values` (not empty).
Spread spreadOf(std::vector<double> values);

// Measures each of `configs` `repeats` times, interleaved; result[c] holds config c's values.
std::vector<std::vector<double>> measureInterleaved(
    int repeats, const std::vector<std::function<double()>>& configs);

// Calls `work`, which returns the units it did, until `seconds` have passed; units per second.
double unitsPerSecond(double seconds, const std::function<int64_t()>& work);

// a[i] / b[i] for each round i.
std::vector<double> roundRatios(const std::vector<double>& a, const std::vector<double>& b);

// One table row: a label, then median, min and max with `digits` decimals.
std::string spreadRow(const std::string& label, const std::vector<double>& values, int digits);

// The header of the rows above.
std::string spreadHeader(const std::string& label);

// "load average 0.52 0.61 0.70 on 2 cores" (1, 5 and 15 minutes).
std::string loadText();

}  // namespace morne::cli
