#include "tests/cli/test_process.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace morne::test {

std::string freshTestDir(const std::string& prefix) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("morne-" + prefix + "-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string writeTempFile(const std::string& name, const std::string& text) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("morne_tests_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

std::vector<std::string> filesEndingWith(const std::string& dir, const std::string& end) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().string();
    if (name.ends_with(end)) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

ProcessResult runCommand(const std::string& cmd) {
  ProcessResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace

ProcessResult runMorne(const std::string& args, const std::string& input) {
  const std::string in = writeTempFile("stdin.txt", input);
  return runCommand(std::string(MORNE_BINARY) + " " + args + " < '" + in + "' 2>&1");
}

ProcessResult runShell(const std::string& script) {
  std::string text = script;
  for (size_t at = text.find("MORNE"); at != std::string::npos; at = text.find("MORNE", at)) {
    text.replace(at, 5, MORNE_BINARY);
    at += std::string(MORNE_BINARY).size();
  }
  const std::string path = writeTempFile("script.sh", text);
  return runCommand("sh '" + path + "' 2>&1");
}

int64_t processStatusKb(const std::string& pid, const std::string& key) {
  std::ifstream status("/proc/" + pid + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with(key)) return std::stoll(line.substr(key.size()));
  return 0;
}

}  // namespace morne::test
