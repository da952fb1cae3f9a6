#include "cli/learning_loop.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "cli/child_process.h"
#include "cli/gate_role.h"
#include "cli/learner_role.h"
#include "cli/selfplay_worker.h"
#include "env/error.h"
#include "env/io/scenario_library.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;

// The roles in turn, in this process.
bool runAlternate(const RoleContext& run) {
  const LoopSettings& loop = run.config.loop;
  SelfplayWorker worker(run, "loop", loop.jobs);
  const std::unique_ptr<env::FileLock> learner_lock =
      lockRole(run.folder.path("train/role.lock"), "a learner");
  const std::unique_ptr<env::FileLock> gate_lock =
      lockRole(run.folder.path("gates/role.lock"), "a gate");
  LearnerRole learner(run, nullptr);
  GateRole gate(run);
  run.say("loop: alternate, generations " + std::to_string(gate.generation()) + ".." +
          std::to_string(loop.generations) + (gate.generation() > 1 ? " (resumed)" : ""));
  if (!gate.ladderIfDue()) return false;
  while (gate.generation() <= loop.generations) {
    const int g = gate.generation();
    if (learner.generation() == g) {  // not trained yet
      const int games = g == 1 ? loop.bootstrap_games : loop.games;
      if (!worker.fill(g - 1, games) || !learner.trainNext()) return false;
    }
    if (!gate.gateNext()) return false;
  }
  run.say("loop: done; best network " + run.folder.readLatest().network);
  return true;
}

// The roles as processes of this machine: `workers` self-play workers, the learner and the
// gate. Done when the learner and the gate are; the workers are then stopped.
bool runProcesses(const RoleContext& run) {
  const LoopSettings& loop = run.config.loop;
  const std::string dir = run.folder.dir();
  run.say("loop: processes, " + std::to_string(loop.workers) +
          " self-play worker(s), the learner and the gate");
  struct Child {
    std::string role;
    pid_t pid;
    bool done = false;
    int status = 0;
  };
  std::vector<Child> children;
  children.push_back({"learner", startMorne({"morne", "loop", "train", dir, "--quiet"})});
  children.push_back({"gate", startMorne({"morne", "loop", "gate", dir, "--quiet"})});
  for (int k = 0; k < loop.workers; ++k) {
    const std::string name = "local-" + std::to_string(k);
    children.push_back({"worker " + name,
                        startMorne({"morne", "loop", "worker", dir, "--worker", name, "--quiet"})});
  }
  auto signalAll = [&](int sig) {
    for (const Child& c : children) {
      if (!c.done) ::kill(c.pid, sig);
    }
  };
  bool stopping = false, failed = false;
  for (;;) {
    for (Child& c : children) {
      if (c.done) continue;
      int status = 0;
      if (::waitpid(c.pid, &status, WNOHANG) == c.pid) {
        c.done = true;
        c.status = status;
        if (!exitedCleanly(status) && !stopping) {
          run.say("loop: the " + c.role + " process ended with " + exitText(status) +
                  "; stopping the others");
          failed = true;
        }
      }
    }
    const bool trained = children[0].done && children[1].done;
    if ((trained || failed || run.stopping()) && !stopping) {
      stopping = true;
      signalAll(SIGINT);  // workers finish their open shards
    }
    if (std::all_of(children.begin(), children.end(), [](const Child& c) { return c.done; })) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (failed) throw Error("loop: a role failed (log.txt says why); continue with --resume " + dir);
  if (!exitedCleanly(children[0].status) || !exitedCleanly(children[1].status)) return false;
  run.say("loop: done; best network " + run.folder.readLatest().network);
  return true;
}

}  // namespace

RoleContext openRun(const LoopConfig& config, const std::string& run_dir, bool quiet,
                    const std::atomic<bool>* stop) {
  const RunFolder folder(run_dir);
  if (fs::exists(folder.path("state.json")) && !fs::exists(folder.path("gates/state.json"))) {
    throw ConfigError(run_dir +
                      " was made by an earlier version of `morne loop` (state.json, before the "
                      "roles of docs/scale-out.md); start a new run");
  }
  for (const char* sub : {"selfplay", "train", "nets", "gates", "ladder", "workers"})
    fs::create_directories(folder.path(sub));
  return RoleContext{config, folder, env::loadScenario(config.loop.scenario), quiet, stop};
}

bool runLearningLoop(const LoopConfig& config, const std::string& run_dir, bool quiet,
                     const std::atomic<bool>* stop) {
  const RoleContext run = openRun(config, run_dir, quiet, stop);
  return config.loop.mode == "processes" ? runProcesses(run) : runAlternate(run);
}

}  // namespace morne::cli
