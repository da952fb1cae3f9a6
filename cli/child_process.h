#pragma once
// This binary started again as a child process (the roles of `morne loop --mode processes`,
// the processes of `morne bench scale`).

#include <sys/types.h>

#include <string>
#include <vector>

namespace morne::cli {

// Starts this binary with `args` (args[0] is its name, "morne"), its output to
// `output_file` (empty: this process's), in a process group of its own (so that Ctrl-C
// reaches this process alone, which passes it on) and stopped with SIGINT when this process
// dies. Throws IoError when it cannot start.
pid_t startMorne(const std::vector<std::string>& args, const std::string& output_file = "");

// Waits for child `pid`; its wait status.
int waitForChild(pid_t pid);

// "exit status 3" or "signal 9", of a wait status.
std::string exitText(int status);

// True for a wait status of a normal exit with status 0.
bool exitedCleanly(int status);

}  // namespace morne::cli
