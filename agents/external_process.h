#pragma once
// A program run as a child process that talks in lines over its stdin and stdout (the engine
// protocol's JSON lines, for the external agent, agents/external_agent.h). Its stderr is this
// process's. It runs in a process group of its own, so that Ctrl-C reaches this process alone,
// and it sees the end of its input when this process ends.

#include <sys/types.h>

#include <string>
#include <vector>

namespace morne::agents {

class ExternalProcess {
 public:
  // Starts `words`: the program (looked up in PATH when it holds no '/') and its arguments, no
  // shell. Throws IoError when it cannot start.
  explicit ExternalProcess(const std::vector<std::string>& words);
  // Closes its input, waits a second for it to exit, then kills it.
  ~ExternalProcess();
  ExternalProcess(const ExternalProcess&) = delete;
  ExternalProcess& operator=(const ExternalProcess&) = delete;

  // Sends `line` and a newline. Throws IoError when the program has closed its input.
  void sendLine(const std::string& line);
  // The next line it writes, without the newline, waiting at most `timeout_ms`. Throws IoError
  // when it ends (with its exit status), says nothing for `timeout_ms`, or writes a line longer
  // than `max_bytes`.
  std::string readLine(double timeout_ms, size_t max_bytes);

 private:
  // "exit status N", "signal N", or "still running" after waiting `wait_ms` for it.
  std::string endText(double wait_ms);

  std::string name_;     // the program, for messages
  pid_t pid_ = -1;       // until it is reaped
  pid_t group_ = -1;     // its process group, killed with whatever is left in it at the end
  int socket_ = -1;      // our end: the program's stdin and stdout are the other
  std::string pending_;  // bytes read past the last line returned
};

}  // namespace morne::agents
