#pragma once
// The "processes" mode of `morne loop`: the roles of a run as child processes of this binary
// on this machine (loop/learning_loop.h has the roles in turn in one process).

#include "loop/learning_loop.h"

namespace morne::cli {

// Starts `workers` self-play worker processes, the learner and the gate against the run's
// folder and waits: true once the learner and the gate are done (the workers are then
// stopped), false when the run stops first. Throws Error when a role fails.
bool runProcesses(const loop::RoleContext& run);

}  // namespace morne::cli
