#pragma once
// A path for a test's file in a folder of this test process under the system's temporary
// folder.

#include <unistd.h>

#include <filesystem>
#include <string>

namespace morne::test {

// `name` in this process's folder of network files, created when missing.
inline std::string tempPath(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("morne_nn_tests_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace morne::test
