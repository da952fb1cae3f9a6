#pragma once
// What `morne arena` prints of an arena run (arena/arena_run.h), shared with the commands
// that play one (`morne loop ladder`): its line, a progress bar with the time left, then the
// errors, the tables and where the reports are.

#include <optional>
#include <string>

#include "arena/arena_run.h"
#include "core/progress.h"

namespace morne::cli {

class ArenaPrinter : public arena::ArenaObserver {
 public:
  // `quiet`: no progress bar; `resume`: the run continues a saved one.
  ArenaPrinter(bool quiet, bool resume) : quiet_(quiet), resume_(resume) {}

  void started(const arena::ArenaRun& run) override;
  void finished(const arena::ArenaRun& run, const arena::ArenaGame& g, int finished) override;

  // Prints what `run` (in folder `out_dir`, "" for none) ended with; returns the command's exit
  // status: 0, 1 when games ended with an error, 130 when interrupted.
  int summarise(const arena::ArenaRun& run, const std::string& out_dir) const;

 private:
  bool quiet_, resume_;
  std::optional<core::Progress> progress_;
};

}  // namespace morne::cli
