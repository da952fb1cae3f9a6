// `morne loop ladder RUN`: the joint ladder of a learning run (loop/joint_ladder.h). Chosen
// generations' networks and the reference agents play one duplicate round robin, an arena run
// in RUN/ladder/joint that resumes where it stopped; then each generation's Elo, with its 95%
// interval, against the first reference, by generation and by CPU-hour.

#include <filesystem>
#include <iostream>
#include <sstream>

#include "arena/results.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "env/error.h"
#include "loop/joint_ladder.h"
#include "loop/loop_config.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;

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
  const loop::LoopConfig c = loop::readLoopRecord(run_dir);
  const loop::RunFolder folder(run_dir);
  const std::string listed = vm["generations"].as<std::string>();
  const std::vector<int> generations =
      listed.empty() ? loop::trainedGenerations(folder) : generationList(listed);
  if (generations.empty()) throw ConfigError("loop ladder: " + run_dir + " has no network yet");
  const std::vector<loop::LadderEntrant> entrants = loop::ladderEntrants(folder, generations);
  std::string references = vm["references"].as<std::string>();
  if (references.empty()) references = c.loop.ladder_references;
  std::string agent = vm["agent"].as<std::string>();
  if (agent.empty()) agent = c.loop.ladder_agent;
  std::istringstream words(references);
  int reference_count = 0;
  std::string agents;
  for (std::string w; words >> w; ++reference_count) agents += (agents.empty() ? "" : " ") + w;
  if (reference_count == 0) throw ConfigError("loop ladder: give at least one reference");
  for (const loop::LadderEntrant& e : entrants) {
    if (e.network.find_first_of(" \t,:") != std::string::npos)
      throw ConfigError("loop ladder: the network path " + e.network +
                        " holds a space, ',' or ':'");
    agents += " " + loop::withModel(agent, e.network);
  }
  std::string out = vm["out"].as<std::string>();
  if (out.empty()) out = folder.path("ladder/joint");
  Args arena = {"--agents",    agents,
                "--scenarios", c.loop.scenario,
                "--rounds",    std::to_string(vm["rounds"].as<int>()),
                "--seed",      std::to_string(vm["seed"].as<uint64_t>()),
                "--jobs",      std::to_string(vm["jobs"].as<int>()),
                "--out",       out};
  if (vm["force"].as<bool>()) {
    arena.push_back("--force");
  } else if (fs::exists(fs::path(out) / "run.json")) {
    const arena::ArenaRunFile saved = arena::readRunFile(out);
    std::string saved_agents;
    for (const std::string& a : saved.agents) saved_agents += (saved_agents.empty() ? "" : " ") + a;
    if (saved_agents != agents || saved.seed != vm["seed"].as<uint64_t>()) {
      throw ConfigError("loop ladder: " + out +
                        " holds a ladder of other players or another seed; --force starts it "
                        "over, --out DIR plays this one elsewhere");
    }
    arena.push_back("--resume");
  }
  if (vm["quiet"].as<bool>()) arena.push_back("--quiet");
  std::cout << "loop ladder: generations";
  for (const loop::LadderEntrant& e : entrants) std::cout << " " << e.generation;
  std::cout << " against " << references << ", " << vm["rounds"].as<int>()
            << " duplicate rounds a pair, in " << out << "\n";
  const int code = runArena(arena);
  if (code != 0) return code;
  std::cout << "\n"
            << loop::writeLadderProgress(out, entrants, reference_count) << "progress: " << out
            << "/generations.json, " << out << "/progress.svg\n";
  return 0;
}

}  // namespace morne::cli
