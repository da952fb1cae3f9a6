// `morne engine`: serves the JSON-lines engine protocol (docs/protocol.md) on stdin/stdout
// until "quit" or end of input.

#include <iostream>
#include <string>

#include "cli/commands.h"
#include "cli/options.h"
#include "engine/session.h"

namespace morne::cli {

int runEngine(const Args& args) {
  po::options_description own("Options of `morne engine`");
  // clang-format off
  own.add_options()
      ("scenario", po::value<std::string>()->default_value(""),
       "load this scenario (built-in name or file) before the first request")
      ("seed", po::value<uint64_t>()->default_value(1), "seed of the dice drawn by \"roll\"");
  // clang-format on
  const ParsedCommand cmd = parseCommand("engine", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne engine [options]   (then one JSON request per line)", own)
              << "\nRequests and replies are JSON objects, one per line:\n"
                 "  {\"cmd\":\"load\",\"scenario\":\"duel\"}   {\"cmd\":\"legal\"}   "
                 "{\"cmd\":\"genmove\",\"agent\":\"mcts:turn_ms=1000\"}\n"
                 "{\"cmd\":\"help\"} lists the commands. The protocol is described in "
                 "docs/protocol.md.\n";
    return 0;
  }
  // Replies are flushed line by line: a client waits for each one.
  engine::EngineSession session(cmd.vm["seed"].as<uint64_t>(),
                                [](const std::string& reply) { std::cout << reply << std::endl; });
  if (const std::string preload = cmd.vm["scenario"].as<std::string>(); !preload.empty()) {
    session.submit(nlohmann::json{{"cmd", "load"}, {"scenario", preload}}.dump());
  }
  // Reading goes on while a search runs, so that "stop" reaches it.
  std::string line;
  while (!session.quitRequested() && engine::readRequestLine(std::cin, line)) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    session.submit(line);
  }
  session.drain();
  return 0;
}

}  // namespace morne::cli
