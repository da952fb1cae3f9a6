#include "cli/loop_processes.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cli/child_process.h"
#include "env/error.h"

namespace morne::cli {

bool runProcesses(const loop::RoleContext& run) {
  const loop::LoopSettings& settings = run.config.loop;
  const std::string dir = run.folder.dir();
  run.say("loop: processes, " + std::to_string(settings.workers) +
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
  for (int k = 0; k < settings.workers; ++k) {
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

}  // namespace morne::cli
