// `morne data inspect [--check] FILE...`: what a self-play shard holds (docs/training-data.md).

#include <cmath>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/options.h"
#include "env/error.h"
#include "training/shard_reader.h"

namespace morne::cli {

namespace {

// Reads every row of a shard and checks the training targets: finite inputs, policy targets
// summing to 1 with no mass on illegal actions, value targets in {-1, 0, 1} matching the game's
// result for the side to move. Prints the figures and returns the number of problems.
int checkRows(const training::ShardContents& c) {
  const size_t plane = static_cast<size_t>(c.shape.planeSize());
  const size_t policy = static_cast<size_t>(c.shape.policy);
  int problems = 0;
  double legal_sum = 0, top_sum = 0, value_sum = 0;
  auto problem = [&](const training::GameData& g, int row, const std::string& what) {
    if (++problems <= 5)
      std::cout << "  problem:    game " << g.id << " row " << row << ": " << what << "\n";
  };
  for (const training::GameData& g : c.games) {
    for (int row = 0; row < g.rows; ++row) {
      const size_t r = static_cast<size_t>(row);
      for (size_t i = 0; i < plane; ++i) {
        if (!std::isfinite(g.planes[r * plane + i])) {
          problem(g, row, "a plane value is not finite");
          break;
        }
      }
      double total = 0, top = 0;
      int legal = 0;
      for (size_t i = 0; i < policy; ++i) {
        const float p = g.policy[r * policy + i];
        legal += g.legal[r * policy + i];
        if (p != 0 && !g.legal[r * policy + i]) problem(g, row, "policy mass on an illegal action");
        total += p;
        top = std::max(top, static_cast<double>(p));
      }
      if (std::abs(total - 1) > 1e-3)
        problem(g, row, "policy target sums to " + std::to_string(total));
      const float expected = g.winner < 0 ? 0.0f : g.winner == g.side[r] ? 1.0f : -1.0f;
      if (g.value[r] != expected) problem(g, row, "value target does not match the result");
      legal_sum += legal;
      top_sum += top;
      value_sum += g.value[r];
    }
  }
  const double rows = static_cast<double>(std::max<int64_t>(1, c.rows));
  std::cout << "  targets:    mean legal actions " << legal_sum / rows << ", mean top policy share "
            << top_sum / rows << ", mean value target " << value_sum / rows << "\n"
            << "  checks:     "
            << (problems ? std::to_string(problems) + " problem(s)" : std::string("ok")) << "\n";
  return problems;
}

}  // namespace

int runData(const Args& args) {
  po::options_description own("Options of `morne data inspect`");
  own.add_options()("check", po::bool_switch(),
                    "also read every row and check the targets (policy sums, legal masks, values)");
  const ParsedCommand cmd = parseCommand("data", args, own, -1);
  if (cmd.help || cmd.positional.empty()) {
    std::cout << usageText("morne data inspect [--check] FILE...", own);
    return cmd.help ? 0 : 1;
  }
  if (cmd.positional[0] != "inspect")
    throw ConfigError("data: unknown action \"" + cmd.positional[0] + "\" (available: inspect)");
  if (cmd.positional.size() < 2) throw ConfigError("data inspect: give one or more shard files");
  int problems = 0;
  for (size_t i = 1; i < cmd.positional.size(); ++i) {
    const bool check = cmd.vm["check"].as<bool>();
    const training::ShardContents c = training::readShard(cmd.positional[i], check);
    std::map<int, int> winners;
    long plies = 0;
    for (const training::GameData& g : c.games) {
      ++winners[g.winner];
      plies += g.plies;
    }
    std::cout << cmd.positional[i] << ":\n"
              << "  format:     " << c.format << " version " << c.format_version
              << ", encoder version " << c.encoder_version << "\n"
              << "  made by:    " << c.engine << "\n"
              << "  scenario:   " << c.scenario << "; agents blue " << c.blue_agent << ", orange "
              << c.orange_agent << "\n"
              << "  positions:  " << c.rows << " rows of " << c.shape.planes << " planes x "
              << c.shape.height << " x " << c.shape.width << ", " << c.shape.globals
              << " globals, policy over " << c.shape.policy << " entries\n"
              << "  games:      " << c.games.size() << " (blue won " << winners[0]
              << ", orange won " << winners[1] << ", drawn " << winners[-1] << "), mean length "
              << (c.games.empty()
                      ? 0.0
                      : static_cast<double>(plies) / static_cast<double>(c.games.size()))
              << " plies\n";
    if (check) problems += checkRows(c);
  }
  return problems ? 1 : 0;
}

}  // namespace morne::cli
