// morne: one binary, explicit subcommand dispatch (no static registrars).

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/network_agent.h"
#include "cli/commands.h"
#include "env/error.h"
#include "nn/network.h"
#include "training/network_loader.h"

namespace {

using morne::cli::Args;

struct Command {
  const char* name;  // one word, or two ("loop ladder")
  const char* summary;
  int (*run)(const Args&);
};

int runHelp(const Args& args);

constexpr Command kCommands[] = {
    {"help", "list the subcommands, or `morne help CMD` for one of them", runHelp},
    {"version", "print the version, git revision and build options", morne::cli::runVersion},
    {"scenario", "validate, show or list scenarios and rule switches", morne::cli::runScenario},
    {"play", "play one game between two agents and print it turn by turn", morne::cli::runPlay},
    {"perft", "count legal action sequences to a depth (move-generation oracle)",
     morne::cli::runPerft},
    {"arena", "rank agents: round robin with duplicate games, W/D/L, Elo, reports",
     morne::cli::runArena},
    {"selfplay", "games of an agent against itself, written as training data (HDF5 shards)",
     morne::cli::runSelfplay},
    {"train", "train a policy-value network on self-play shards (checkpoints, metrics, resume)",
     morne::cli::runTrain},
    {"loop", "the generation loop: self-play, training, gate and Elo ladder, resumable",
     morne::cli::runLoop},
    {"loop ladder", "the networks of a run's generations rated together against references",
     morne::cli::runLoopLadder},
    {"data",
     "describe and check self-play shards: `morne data inspect [--check] FILE...`, `morne data "
     "schema`",
     morne::cli::runData},
    {"nn", "create a policy-value network for a scenario (`nn init`), or describe one (`nn info`)",
     morne::cli::runNn},
    {"engine", "serve the JSON-lines engine protocol on stdin/stdout", morne::cli::runEngine},
    {"serve", "the browser client: play or watch the AI at http://127.0.0.1:8080/",
     morne::cli::runServe},
    {"bench",
     "measure speed: `morne bench env` (rules), `mcts` (search), `nn` (network), `selfplay`, "
     "`train` (learner)",
     morne::cli::runBench},
};

void printCommands() {
  std::cout << "morne: computer opponents for the Morne Plaine wargame\n\n"
               "usage: morne <command> [options]   (morne <command> --help for its options)\n\n"
               "commands:\n";
  for (const Command& c : kCommands) std::printf("  %-12s %s\n", c.name, c.summary);
  std::cout << "\nagents (NAME or NAME:key=value,...; `morne help play` lists their parameters):\n";
  for (const morne::agents::AgentKind& k : morne::agents::agentKinds()) {
    const std::string_view summary = k.summary.substr(0, k.summary.find(" ("));
    std::printf("  %-10.*s %.*s\n", static_cast<int>(k.name.size()), k.name.data(),
                static_cast<int>(summary.size()), summary.data());
  }
}

const Command* findCommand(const std::string& name) {
  for (const Command& c : kCommands) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

// The command `args` name (two words before one: "loop ladder", then "loop"), and how many of
// the arguments name it; none when there is no such command.
std::pair<const Command*, size_t> commandOf(const Args& args) {
  if (args.size() >= 2) {
    if (const Command* c = findCommand(args[0] + " " + args[1])) return {c, 2};
  }
  return {args.empty() ? nullptr : findCommand(args[0]), 1};
}

int runHelp(const Args& args) {
  if (args.empty()) {
    printCommands();
    return 0;
  }
  const Command* c = commandOf(args).first;
  if (!c) {
    std::cerr << "morne help: unknown command \"" << args[0] << "\"\n\n";
    printCommands();
    return 1;
  }
  if (c->run == runHelp) {
    printCommands();
    return 0;
  }
  return c->run({"--help"});
}

}  // namespace

int main(int argc, char** argv) {
  // Line by line, also into a pipe or a file: progress and results show as they happen.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  morne::nn::configureTorchRuntime(1);  // games run in parallel: one intra-op thread each
  // The "az" agents load their networks through LibTorch (nn/torch/), which agents/ never sees.
  morne::agents::setNetworkLoader(morne::training::loadNetworkEvaluator);
  const Args all(argv + 1, argv + argc);
  if (all.empty()) {
    printCommands();
    return 1;
  }
  if (all[0] == "--help" || all[0] == "-h") {
    printCommands();
    return 0;
  }
  const auto [command, words] = commandOf(all);
  if (!command) {
    std::cerr << "morne: unknown command \"" << all[0] << "\"\n\n";
    printCommands();
    return 1;
  }
  try {
    return command->run(Args(all.begin() + static_cast<std::ptrdiff_t>(words), all.end()));
  } catch (const morne::InternalError& e) {
    std::cerr << "morne " << command->name << ": internal error: " << e.what() << "\n";
    return 3;
  } catch (const morne::Error& e) {
    // Messages may start with the command's own name ("arena: ..."); it is said once.
    std::string message = e.what();
    const std::string own = std::string(command->name) + ": ";
    if (message.rfind(own, 0) == 0) message.erase(0, own.size());
    std::cerr << "morne " << command->name << ": error: " << message << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "morne " << command->name << ": internal error: " << e.what() << "\n";
    return 3;
  }
}
