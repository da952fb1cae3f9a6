#include "cli/openmp_policy.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

namespace morne::cli {

namespace {
constexpr const char* kMarker = "MORNE_SET_OMP_WAIT_POLICY";  // tells the child who set it
}  // namespace

void requirePassiveOpenMp() {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::string> args;
  for (size_t start = 0; start < all.size();) {
    const size_t end = all.find('\0', start);
    args.push_back(all.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
  setenv(kMarker, "1", 1);
  std::cout << std::flush;
  if (!args.empty()) execv("/proc/self/exe", argv.data());
  std::cerr << "morne: could not re-execute with OMP_WAIT_POLICY=PASSIVE (" << std::strerror(errno)
            << "); idle OpenMP threads will spin\n";
  unsetenv("OMP_WAIT_POLICY");
  unsetenv(kMarker);
}

std::string openMpPolicyText() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  if (!policy) return "unset (libgomp default: idle threads spin)";
  return std::string(policy) +
         (std::getenv(kMarker) ? " (set by morne)" : " (from the environment)");
}

}  // namespace morne::cli
