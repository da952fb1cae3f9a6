// `morne loop`: the generation loop (loop/learning_loop.h, docs/training.md) from a config
// file; `--resume RUN` continues a run, `morne loop status RUN` tells where it stands, and
// `morne loop init|worker|train|gate RUN` make a run and run its roles one process each
// (docs/scale-out.md).

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "agents/agent_kinds.h"
#include "agents/agent_spec.h"
#include "cli/commands.h"
#include "cli/loop_processes.h"
#include "cli/openmp_policy.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "core/interrupt.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "http/http_server.h"
#include "loop/gate_role.h"
#include "loop/learner_role.h"
#include "loop/learning_loop.h"
#include "loop/remote_worker.h"
#include "loop/run_exchange.h"
#include "loop/run_summary.h"
#include "loop/selfplay_worker.h"
#include "nn/network.h"
#include "training/selfplay_options.h"
#include "training/train_options.h"

namespace morne::cli {

namespace {

// Checks what can be checked before a long run starts.
void checkConfig(const loop::LoopConfig& c, const std::string& dir) {
  if (c.loop.mode == "concurrent") {
    throw ConfigError(
        "loop: --mode concurrent gave way to --mode processes (the roles as processes at once, "
        "docs/scale-out.md)");
  }
  loop::checkLoopSettings(c.loop);
  agents::withModel(c.loop.agent, dir);  // the networks' paths in the run must fit in a spec
  const std::shared_ptr<const env::Scenario> scenario = env::loadScenario(c.loop.scenario);
  if (!c.loop.init.empty()) {
    if (!c.network.net.empty())
      throw ConfigError("loop: give --init or --net, not both (--init trains from its network)");
    if (!std::filesystem::exists(dir + "/" + loop::kInitialNetwork))  // not copied yet
      nn::checkNetworkFits(nn::Network::load(c.loop.init)->config(), *scenario);
  }
  agents::makeAgent(c.loop.bootstrap, 1);
  std::istringstream references(c.loop.ladder_references);
  int count = 0;
  for (std::string spec; references >> spec; ++count) agents::makeAgent(spec, 1);
  if (count == 0) throw ConfigError("loop: --ladder-references names no agent");
}

// The options of a role's process, beside its run folder.
struct RoleOptions {
  std::string worker;
  int max_games = 0;
  int rank = 0;
  int ranks = 1;
  std::string group;
  std::string interface;
  int group_timeout = 600;
  std::string remote;
  std::string token_file;
  std::string host = "127.0.0.1";
  int port = 8090;
  int max_upload_mb = 1024;
};

// One row each; the help begins with the role that takes the option.
const env::OptionRow<RoleOptions> kRoleRows[] = {
    {"worker", &RoleOptions::worker, env::anyValue(),
     "worker: its name in the run, unique (default: HOST-PID)"},
    {"max-games", &RoleOptions::max_games, env::atLeast(0),
     "worker: stop after this many games (0: when the run is done)"},
    {"remote", &RoleOptions::remote, env::anyValue(),
     "worker: play for the run `morne loop serve` serves at http://HOST:PORT (RUN is then the "
     "worker's own folder)"},
    {"token-file", &RoleOptions::token_file, env::anyValue(),
     "worker: the file holding the run's token (RUN/token on the server), with --remote"},
    {"host", &RoleOptions::host, env::anyValue(),
     "serve: the address to listen on (0.0.0.0: every interface)"},
    {"port", &RoleOptions::port, env::OptionRange{0, 65535}, "serve: the port (0: any free one)"},
    {"max-upload-mb", &RoleOptions::max_upload_mb, env::atLeast(1),
     "serve: the largest upload taken, in MiB"},
    {"rank", &RoleOptions::rank, env::atLeast(0),
     "train: this process's rank in a data-parallel learner"},
    {"ranks", &RoleOptions::ranks, env::atLeast(1),
     "train: processes of the data-parallel learner"},
    {"group", &RoleOptions::group, env::anyValue(),
     "train: where the ranks meet: tcp://HOST:PORT (rank 0's host) or file://PATH"},
    {"interface", &RoleOptions::interface, env::anyValue(),
     "train: network interface of the ranks' connections (default: the host name's)"},
    {"group-timeout", &RoleOptions::group_timeout, env::atLeast(1),
     "train: seconds for the ranks to meet and for any one exchange"},
};

// The run's settings a role may set for its own machine.
const std::pair<const char*, const char*> kRoleOverrides[] = {
    {"jobs", "worker"}, {"jobs", "gate"}, {"threads", "train"}};

// The role that takes `option`, or "" when it is not a role's own option.
std::string roleOf(const std::string& option) {
  for (const env::OptionRow<RoleOptions>& r : kRoleRows) {
    if (option == r.name) return std::string(r.help).substr(0, std::string(r.help).find(':'));
  }
  return "";
}

std::string defaultWorkerName() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string name;
  for (const char* c = host; *c && *c != '.'; ++c) {
    name += std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' || *c == '_' ? *c : '_';
  }
  return (name.empty() ? "worker" : name) + "-" + std::to_string(::getpid());
}

// `morne loop worker DIR --remote URL`: a worker of a run it reaches over HTTP, in its own folder.
int runRemoteWorker(const std::string& dir_arg, const po::variables_map& vm,
                    const RoleOptions& options) {
  if (options.token_file.empty())
    throw ConfigError("loop worker: --remote needs --token-file (the server's RUN/token)");
  loop::RemoteWorkerSettings s;
  s.url = options.remote;
  s.token = loop::readTokenFile(options.token_file);
  s.dir = std::filesystem::absolute(dir_arg).lexically_normal().string();
  agents::withModel("az", s.dir);  // the networks' paths in the folder must fit in a spec
  s.name = options.worker.empty() ? defaultWorkerName() : options.worker;
  s.jobs = vm["jobs"].as<int>();
  s.max_games = options.max_games;
  s.allow_programs = vm["allow-programs"].as<bool>();
  s.quiet = vm["quiet"].as<bool>();
  const core::InterruptFlag interrupt;
  s.stop = interrupt.flag();
  loop::runRemoteWorker(s);
  return interrupt.raised() ? 130 : 0;
}

// `morne loop worker|train|gate|serve RUN`: one role of a run, with the run's own settings but
// for the machine's threads.
int runRole(const std::string& role, const std::string& dir_arg, const po::variables_map& vm,
            const RoleOptions& options) {
  if (role == "worker" && !options.remote.empty()) return runRemoteWorker(dir_arg, vm, options);
  if (!options.token_file.empty())
    throw ConfigError("loop " + role + ": --token-file goes with --remote");
  const std::string dir = std::filesystem::absolute(dir_arg).lexically_normal().string();
  loop::LoopConfig c = loop::readLoopRecord(dir);
  if (!vm["jobs"].defaulted()) c.loop.jobs = vm["jobs"].as<int>();
  if (!vm["threads"].defaulted()) c.loop.threads = vm["threads"].as<int>();
  const bool quiet = vm["quiet"].as<bool>();
  const core::InterruptFlag interrupt;
  const loop::RoleContext run = loop::openRun(c, dir, quiet, interrupt.flag());
  bool finished = false;
  if (role == "worker") {
    loop::runSelfplayWorker(run, options.worker.empty() ? defaultWorkerName() : options.worker,
                            c.loop.jobs, options.max_games);
    finished = !interrupt.raised();
  } else if (role == "serve") {
    http::HttpServerConfig server;
    server.host = options.host;
    server.port = options.port;
    server.max_body_bytes = uint64_t(options.max_upload_mb) << 20;
    loop::serveRun(run, server);
    finished = true;
  } else if (role == "train") {
    if (c.loop.threads > 1) requirePassiveOpenMp();  // beside workers, spinning threads collapse
    std::unique_ptr<nn::ProcessGroup> group;
    if (options.ranks > 1) {
      if (options.group.empty()) {
        throw ConfigError("loop train: --ranks " + std::to_string(options.ranks) +
                          " needs --group tcp://HOST:PORT or file://PATH");
      }
      std::cout << "learner: rank " << options.rank << " of " << options.ranks << " joining "
                << options.group << "\n"
                << std::flush;
      group = nn::ProcessGroup::connect(
          {options.rank, options.ranks, options.group, options.interface, options.group_timeout});
    }
    finished = loop::runLearnerRole(run, group.get());
  } else {
    finished = loop::runGateRole(run);
  }
  return finished ? 0 : 130;
}

}  // namespace

int runLoop(const Args& args) {
  loop::LoopConfig c;
  c.train.steps = 2000;  // per generation
  RoleOptions role;
  po::options_description own("Options of `morne loop`");
  // clang-format off
  own.add_options()
      ("out", po::value<std::string>(), "run folder to create")
      ("resume", po::value<std::string>(), "run folder to continue (its own settings)")
      ("quiet", po::bool_switch(), "no progress bars")
      ("allow-programs", po::bool_switch(),
       "worker: with --remote, play agents that start programs (ext:cmd=...) when the run "
       "names them (off: such a run is refused, for its settings come from the server)");
  // clang-format on
  addOptions<RoleOptions>(own, kRoleRows, role);
  addOptions<loop::LoopSettings>(own, loop::loopSettingRows(), c.loop);
  addOptions<training::SelfPlayConfig>(own, training::selfplayPlayRows(), c.selfplay);
  addOptions<training::TrainSettings>(own, training::trainOptionRows(), c.train);
  addOptions<nn::LearnerConfig>(own, nn::learnerOptionRows(), c.train.learner);
  addOptions<training::NetworkSource>(own, training::networkOptionRows(), c.network);
  const ParsedCommand cmd = parseCommand("loop", args, own, 2);
  if (cmd.help) {
    std::cout << usageText(
        "morne loop --config FILE --out RUN [options]  |  morne loop --resume RUN  |  "
        "morne loop status RUN  |  morne loop ladder RUN [options]\n"
        "       morne loop init --config FILE --out RUN  |  morne loop worker|train|gate|serve "
        "RUN\n"
        "       morne loop worker DIR --remote http://HOST:PORT --token-file FILE\n"
        "(training options apply to each generation: --steps and --max-reuse per generation; "
        "the roles: docs/scale-out.md)",
        own);
    return 0;
  }
  const auto& vm = cmd.vm;
  const std::string action = cmd.positional.empty() ? "" : cmd.positional[0];
  const bool is_role =
      action == "worker" || action == "train" || action == "gate" || action == "serve";
  for (const auto& [name, value] : vm) {
    if (value.defaulted() || name == "quiet") continue;
    const std::string role_of = name == "allow-programs" ? "worker" : roleOf(name);
    const bool overrides = std::any_of(
        std::begin(kRoleOverrides), std::end(kRoleOverrides),
        [&, &key = name](const auto& o) { return key == o.first && action == o.second; });
    if (is_role && role_of != action && !overrides) {
      throw ConfigError("loop " + action + ": the run's own settings apply (RUN/loop.json); --" +
                        name + " cannot be given here");
    }
    if (!is_role && !role_of.empty())
      throw ConfigError("loop: --" + name + " is an option of `morne loop " + role_of + "` only");
  }
  if (is_role) {
    if (cmd.positional.size() != 2)
      throw ConfigError("loop: give the run folder: morne loop " + action + " RUN");
    readOptions<RoleOptions>("loop " + action, vm, kRoleRows, role);
    return runRole(action, cmd.positional[1], vm, role);
  }
  if (action == "status") {
    if (cmd.positional.size() != 2)
      throw ConfigError("loop: give the run folder: morne loop status RUN");
    std::cout << loop::loopStatus(cmd.positional[1]);
    return 0;
  }
  if (!action.empty() && action != "init") {
    throw ConfigError(
        "loop: the actions are init, worker, train, gate, serve, status and ladder (got " + action +
        ")");
  }
  if (action == "init" && (cmd.positional.size() != 1 || vm.count("resume")))
    throw ConfigError("loop: init makes a new run: morne loop init --config FILE --out RUN");
  std::string dir;
  if (vm.count("resume")) {
    dir = vm["resume"].as<std::string>();
    refuseSettingsOnResume("loop", vm, "loop.json", {"generations", "max-cpu-hours"});
    c = loop::readLoopRecord(dir);
    if (!vm["generations"].defaulted()) c.loop.generations = vm["generations"].as<int>();
    if (!vm["max-cpu-hours"].defaulted()) c.loop.max_cpu_hours = vm["max-cpu-hours"].as<double>();
  } else {
    if (!vm.count("out")) throw ConfigError("loop: give --out RUN (or --resume RUN)");
    dir = vm["out"].as<std::string>();
    readOptions<loop::LoopSettings>("loop", vm, loop::loopSettingRows(), c.loop);
    readOptions<training::SelfPlayConfig>("loop", vm, training::selfplayPlayRows(), c.selfplay);
    readOptions<training::TrainSettings>("loop", vm, training::trainOptionRows(), c.train);
    readOptions<nn::LearnerConfig>("loop", vm, nn::learnerOptionRows(), c.train.learner);
    readOptions<training::NetworkSource>("loop", vm, training::networkOptionRows(), c.network);
    if (!c.loop.init.empty())
      c.loop.init = std::filesystem::absolute(c.loop.init).lexically_normal().string();
    if (std::filesystem::exists(dir + "/loop.json")) {
      throw ConfigError("loop: " + dir + " already holds a run; continue it with --resume " + dir +
                        ", or choose another folder");
    }
  }
  dir = std::filesystem::absolute(dir).lexically_normal().string();
  checkConfig(c, dir);
  std::filesystem::create_directories(dir);
  if (!vm.count("resume") || !vm["generations"].defaulted() || !vm["max-cpu-hours"].defaulted())
    loop::writeLoopRecord(dir, c);
  std::cout << core::versionLine() << "\nloop: run folder " << dir << "\n" << std::flush;
  if (action == "init") {
    loop::openRun(c, dir, true, nullptr);  // its folders
    std::cout << "loop: made; start its roles (docs/scale-out.md):\n  morne loop train " << dir
              << "\n  morne loop gate " << dir << "\n  morne loop worker " << dir
              << " --worker NAME   (as many as you like, anywhere the folder is)\n";
    return 0;
  }
  const core::InterruptFlag interrupt;
  const loop::RoleContext run = loop::openRun(c, dir, vm["quiet"].as<bool>(), interrupt.flag());
  const bool finished = c.loop.mode == "processes" ? runProcesses(run) : loop::runRolesInTurn(run);
  if (!finished) std::cout << "interrupted; continue with: morne loop --resume " << dir << "\n";
  return finished && !interrupt.raised() ? 0 : 130;
}

}  // namespace morne::cli
