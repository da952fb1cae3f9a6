#pragma once
// Ctrl-C and SIGTERM as a request to stop a long run (arena, self-play): the first signal sets
// a flag the run polls, so it can save what it has and report; a second one kills at once
// (the default action is restored by the first).

#include <atomic>

namespace morne::core {

class InterruptFlag {
 public:
  // Clears the flag and installs the handlers of SIGINT and SIGTERM.
  InterruptFlag();
  // Restores the default handlers.
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  // The flag the run polls; true once a signal came.
  const std::atomic<bool>* flag() const;
  bool raised() const { return *flag(); }
};

}  // namespace morne::core
