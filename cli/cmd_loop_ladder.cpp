// `morne loop ladder RUN`: the joint ladder of a learning run (loop/joint_ladder.h). Chosen
// generations' networks and the reference agents play one duplicate round robin, an arena run
// in RUN/ladder/joint that resumes where it stopped; then each generation's Elo, with its 95%
// interval, against the first reference, by generation and by CPU-hour.

#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/arena_printer.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "core/interrupt.h"
#include "env/error.h"
#include "loop/joint_ladder.h"
#include "loop/loop_config.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;

// The numbers of a comma-separated list ("" gives none).
std::vector<int> generationList(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    try {
      size_t used = 0;
      out.push_back(std::stoi(item, &used));
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::logic_error&) {
      throw ConfigError("loop ladder: --generations takes numbers separated by commas (got \"" +
                        text + "\")");
    }
  }
  return out;
}

}  // namespace

int runLoopLadder(const Args& args) {
  po::options_description own("Options of `morne loop ladder`");
  // clang-format off
  own.add_options()
      ("generations", po::value<std::string>()->default_value(""),
       "the generations whose networks play, separated by commas (\"\": every one trained)")
      ("references", po::value<std::string>()->default_value(""),
       "reference agent specs, separated by spaces; the first is the Elo anchor (\"\": the "
       "run's ladder-references)")
      ("agent", po::value<std::string>()->default_value(""),
       "agent spec the networks play as, model= added (\"\": the run's ladder-agent)")
      ("rounds", po::value<int>()->default_value(50),
       "duplicate rounds of every pair (2 games each)")
      ("jobs", po::value<int>()->default_value(2), "games played at once")
      ("seed", po::value<uint64_t>()->default_value(1), "base seed of the dice and agents")
      ("out", po::value<std::string>()->default_value(""),
       "the arena run's folder (\"\": RUN/ladder/joint)")
      ("force", po::bool_switch(), "start over in --out, deleting its games")
      ("quiet", po::bool_switch(), "no progress bar");
  // clang-format on
  const ParsedCommand cmd = parseCommand("loop ladder", args, own, 1);
  if (cmd.help || cmd.positional.size() != 1) {
    std::cout << usageText("morne loop ladder RUN [options]", own)
              << "\nRates chosen generations of a learning run together with fixed references "
                 "(docs/training.md).\n";
    return cmd.help ? 0 : 2;
  }
  const auto& vm = cmd.vm;
  const std::string run_dir = fs::absolute(cmd.positional[0]).lexically_normal().string();
  loop::JointLadderRequest request;
  request.generations = generationList(vm["generations"].as<std::string>());
  request.references = vm["references"].as<std::string>();
  request.agent = vm["agent"].as<std::string>();
  request.rounds = vm["rounds"].as<int>();
  request.jobs = vm["jobs"].as<int>();
  request.seed = vm["seed"].as<uint64_t>();
  request.out = vm["out"].as<std::string>();
  request.force = vm["force"].as<bool>();
  const loop::JointLadder ladder =
      loop::planJointLadder(loop::RunFolder(run_dir), loop::readLoopRecord(run_dir), request);
  std::cout << "loop ladder: generations";
  for (const loop::LadderEntrant& e : ladder.entrants) std::cout << " " << e.generation;
  std::cout << " against";
  for (const std::string& r : ladder.references) std::cout << " " << r;
  std::cout << ", " << request.rounds << " duplicate rounds a pair, in " << ladder.arena.out
            << "\n";
  ArenaPrinter printer(vm["quiet"].as<bool>(), ladder.arena.use == arena::FolderUse::kResume);
  const core::InterruptFlag interrupt;
  std::string progress;
  const arena::ArenaRun run = loop::runJointLadder(ladder, printer, interrupt.flag(), progress);
  const int code = printer.summarise(run, ladder.arena.out);
  if (code != 0) return code;
  std::cout << "\n"
            << progress << "progress: " << ladder.arena.out << "/generations.json, "
            << ladder.arena.out << "/progress.svg\n";
  return 0;
}

}  // namespace morne::cli
