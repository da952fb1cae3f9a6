#pragma once
// Runs the real `morne` binary as a user would, with stdin from a string, and captures its
// output and exit status.

#include <cstdint>
#include <string>
#include <vector>

namespace morne::test {

struct ProcessResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `morne ARGS` (ARGS is shell text) with `input` on stdin.
ProcessResult runMorne(const std::string& args, const std::string& input = "");

// Runs shell text in which "MORNE" stands for the binary's path (for pipelines and signals).
ProcessResult runShell(const std::string& script);

// The files of `dir` whose names end with `end`, sorted (none when `dir` does not exist).
std::vector<std::string> filesEndingWith(const std::string& dir, const std::string& end);

// A fresh, empty folder for the running test, named after `prefix`, the process and the test:
// TMP/morne-PREFIX-PID-TEST.
std::string freshTestDir(const std::string& prefix);

// Writes `text` to a fresh temporary file and returns its path.
std::string writeTempFile(const std::string& name, const std::string& text);

// A figure of /proc/PID/status in kB: "VmRSS:" (resident now) or "VmHWM:" (its peak); 0 when
// the process or the line is gone.
int64_t processStatusKb(const std::string& pid, const std::string& key = "VmRSS:");

}  // namespace morne::test
