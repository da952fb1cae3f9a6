#pragma once
// The progress line of long runs (arena, self-play) on stderr: a bar, done/total, elapsed time,
// ETA and a caller's note (rates). Redrawn in place on a terminal; on a pipe or file, one line
// per 10% so logs stay short.

#include <chrono>
#include <string>

namespace morne::core {

class Progress {
 public:
  // `unit` names what is counted ("games"); disabled: prints nothing.
  Progress(int total, std::string unit, bool enabled);

  // Shows `done` of the total, with `note` after the ETA. The ETA is `eta_seconds` when the
  // caller knows better (>= 0), else the elapsed time per item done times the items left.
  void update(int done, const std::string& note = "", double eta_seconds = -1);

  // Seconds since construction.
  double elapsed() const;

 private:
  int total_;
  std::string unit_;
  bool enabled_;
  bool tty_;
  int last_decile_ = -1;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "h:mm:ss".
std::string clockText(double seconds);

}  // namespace morne::core
