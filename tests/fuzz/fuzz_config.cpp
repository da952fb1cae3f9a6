// Fuzz target: config files (`key = value` lines, [sections], comments) and the values they
// give options of every type. Bad input is a morne::Error naming its place.

#include <string>
#include <vector>

#include "cli/options.h"
#include "env/error.h"
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morne;
  namespace po = cli::po;
  static const po::options_description own = [] {
    po::options_description d("fuzz");
    d.add_options()("seed", po::value<uint64_t>()->default_value(1), "")(
        "games", po::value<int>()->default_value(8), "")(
        "ratio", po::value<double>()->default_value(0.5), "")(
        "name", po::value<std::string>()->default_value("x"), "")(
        "mcts.cpuct", po::value<double>()->default_value(1.5), "")("quiet", po::bool_switch(), "")(
        "scenario", po::value<std::vector<std::string>>()->composing(), "");
    return d;
  }();
  std::vector<cli::ConfigEntry> entries;
  try {
    entries = cli::parseConfigText(std::string(fuzz::text(data, size)), "fuzz.cfg");
  } catch (const Error&) {
    return 0;
  }
  for (const cli::ConfigEntry& e : entries) {
    fuzz::fuzzRequire(!e.key.empty(), "an entry without a key");
    try {
      cli::parseCommand("fuzz", {"--set", e.key + "=" + e.value}, own, 0);
    } catch (const Error&) {
    }
  }
  return 0;
}
