#pragma once
// `morne loop`: the AlphaZero-style generation loop (docs/training.md), made of three roles
// that share a run folder (loop/run_folder.h, docs/scale-out.md): self-play workers
// (loop/selfplay_worker.h), the learner (loop/learner_role.h) and the gate (loop/gate_role.h).
// From data set 0, played by a bootstrap agent, each generation g is:
//
//   train    the learner trains on every data set so far once data set g - 1 is played;
//   gate     the candidate plays the best network; promoted, it plays data set g;
//   ladder   on a schedule, the best network is rated against fixed references.
//
// In the "alternate" mode the roles take turns in one process, each with the whole machine
// (the same seed and settings give the same run): runRolesInTurn. In the "processes" mode
// `morne loop` starts `workers` self-play processes, the learner and the gate, which work at
// once (cli/loop_processes.h); workers started by hand or by a cluster's scheduler against the
// same folder join them.
//
// Every role records its progress in the folder, atomically, before and after each step, so
// `--resume` continues after a crash or a kill -9 at any point: self-play keeps every finished
// game, training resumes from its checkpoint, and a gate or ladder cut short is played again
// (the same seeds, the same games).

#include "loop/loop_config.h"

namespace morne::loop {

// Runs or resumes the run's roles in turn in this process until the last generation is gated
// or the run has spent its max_cpu_hours (true) or the run stops (false). Progress goes to stdout
// and RUN/log.txt. Throws ConfigError or IoError.
bool runRolesInTurn(const RoleContext& run);

}  // namespace morne::loop
