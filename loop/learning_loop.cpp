#include "loop/learning_loop.h"

#include "core/number_text.h"
#include "env/error.h"
#include "loop/gate_role.h"
#include "loop/learner_role.h"
#include "loop/run_summary.h"
#include "loop/selfplay_worker.h"

namespace morne::loop {

namespace {

// Whether the run has spent its --max-cpu-hours (said when it has).
bool cpuBudgetSpent(const RoleContext& run) {
  const double budget = run.config.loop.max_cpu_hours;
  const double spent = runCpuSeconds(run.folder) / 3600;
  if (budget <= 0 || spent < budget) return false;
  run.say("loop: " + core::fixedText(spent, 2) + " CPU-hours spent (max-cpu-hours " +
          core::shortText(budget) + ")");
  return true;
}

}  // namespace

bool runRolesInTurn(const RoleContext& run) {
  const LoopSettings& settings = run.config.loop;
  SelfplayWorker worker(run, "loop", settings.jobs);
  const std::unique_ptr<env::FileLock> learner_lock =
      lockRole(run.folder.path("train/role.lock"), "a learner");
  const std::unique_ptr<env::FileLock> gate_lock =
      lockRole(run.folder.path("gates/role.lock"), "a gate");
  LearnerRole learner(run, nullptr);
  GateRole gate(run);
  run.say("loop: alternate, generations " + std::to_string(gate.generation()) + ".." +
          std::to_string(settings.generations) + (gate.generation() > 1 ? " (resumed)" : ""));
  if (!gate.ladderIfDue()) return false;
  while (gate.generation() <= settings.generations && !cpuBudgetSpent(run)) {
    const int g = gate.generation();
    if (learner.generation() == g) {  // not trained yet
      const int games = g == 1 ? settings.bootstrap_games : settings.games;
      if (!worker.fill(g - 1, games) || !learner.trainNext()) return false;
    }
    if (!gate.gateNext()) return false;
  }
  run.say("loop: done; best network " + run.folder.readLatest().network);
  return true;
}

}  // namespace morne::loop
