// `morne data inspect [--check] FILE...`: what a self-play shard holds (docs/training-data.md);
// `morne data schema`: the shard format itself (training/shard_schema.h), as JSON.
// Each file is read in a child process of its own (training/shard_isolation.h): a file damaged
// so that the HDF5 library itself crashes reading it is reported as damaged, and the other
// files are still inspected.

#include <iostream>
#include <map>
#include <sstream>

#include "cli/commands.h"
#include "cli/options.h"
#include "env/error.h"
#include "training/shard_check.h"
#include "training/shard_isolation.h"
#include "training/shard_reader.h"
#include "training/shard_schema.h"

namespace morne::cli {

namespace {

void printSummary(const std::string& path, const training::ShardContents& c, std::ostream& out) {
  std::map<int, int> winners;
  long plies = 0;
  for (const training::GameData& g : c.games) {
    ++winners[g.winner];
    plies += g.plies;
  }
  out << path << ":\n"
      << "  format:     " << c.format << " version " << c.format_version << ", encoder version "
      << c.encoder_version << "\n"
      << "  made by:    " << c.engine << "\n"
      << "  scenario:   " << c.scenario << "; agents blue " << c.blue_agent << ", orange "
      << c.orange_agent << "\n"
      << "  positions:  " << c.rows << " rows of " << c.shape.planes << " planes x "
      << c.shape.height << " x " << c.shape.width << ", " << c.shape.globals
      << " globals, policy over " << c.shape.policy << " entries\n"
      << "  games:      " << c.games.size() << " (blue won " << winners[0] << ", orange won "
      << winners[1] << ", drawn " << winners[-1] << "), mean length "
      << (c.games.empty() ? 0.0 : static_cast<double>(plies) / static_cast<double>(c.games.size()))
      << " plies\n";
}

// Inspects one file; returns true when it is whole and (with `check`) passes every check.
bool inspect(const std::string& path, bool check, std::ostream& out) {
  try {
    const training::ShardContents c = training::readShard(path, check);
    printSummary(path, c, out);
    if (!check) return true;
    const training::ShardCheck r = training::checkShard(c);
    for (const std::string& p : r.problems) out << "  problem:    " << p << "\n";
    if (r.problem_count > static_cast<int64_t>(r.problems.size()))
      out << "  problem:    ... " << r.problem_count - static_cast<int64_t>(r.problems.size())
          << " more\n";
    out << "  targets:    mean legal actions " << r.mean_legal << ", mean top policy share "
        << r.mean_top_policy << ", mean value target " << r.mean_value << "\n"
        << "  checks:     "
        << (r.problem_count ? std::to_string(r.problem_count) + " problem(s)" : std::string("ok"))
        << "\n";
    return r.problem_count == 0;
  } catch (const Error& e) {
    out << path << ":\n  error:      " << e.what() << "\n";
    return false;
  }
}

// Runs inspect() in a child process (training/shard_isolation.h): a file on which libhdf5
// crashes or loops (more than `seconds`) is reported as damaged, and the next file is read.
bool inspectIsolated(const std::string& path, bool check, double seconds) {
  bool passed = false;
  std::string report;
  const std::string end = training::runIsolated(
      [&](const training::SendToParent& send) {
        std::ostringstream out;
        const bool ok = inspect(path, check, out);
        send(std::string(ok ? "1" : "0") + out.str());
      },
      [&](const std::string& message) {
        passed = message[0] == '1';
        report = message.substr(1);
      },
      seconds);
  std::cout << report;
  if (end.empty()) return passed;
  std::cout << path << ":\n  damaged:    " << end << "\n";
  return false;
}

}  // namespace

int runData(const Args& args) {
  po::options_description own("Options of `morne data inspect`");
  // clang-format off
  own.add_options()
      ("check", po::bool_switch(),
       "also read every row and check it against the format (inputs, targets, masks, games)")
      ("file-seconds", numberOption(600),
       "a file still being read after this long is reported as damaged");
  // clang-format on
  const ParsedCommand cmd = parseCommand("data", args, own, -1);
  if (cmd.help || cmd.positional.empty()) {
    std::cout << usageText("morne data inspect [--check] FILE...\n       morne data schema", own)
              << "\n`schema` prints the shard format (attributes and datasets) as JSON.\n"
              << "\nExit status: 0 when every file is whole (and passes the checks), 1 when one "
                 "is damaged or fails a check.\n";
    return cmd.help ? 0 : 1;
  }
  if (cmd.positional[0] == "schema") {
    if (cmd.positional.size() > 1) throw ConfigError("data schema: takes no file");
    std::cout << training::shardSchemaJson().dump(2) << "\n";
    return 0;
  }
  if (cmd.positional[0] != "inspect") {
    throw ConfigError("data: unknown action \"" + cmd.positional[0] +
                      "\" (available: inspect, schema)");
  }
  if (cmd.positional.size() < 2) throw ConfigError("data inspect: give one or more shard files");
  const double seconds = cmd.vm["file-seconds"].as<double>();
  if (!(seconds > 0)) throw ConfigError("data inspect: --file-seconds must be positive");
  bool all_ok = true;
  for (size_t i = 1; i < cmd.positional.size(); ++i)
    all_ok = inspectIsolated(cmd.positional[i], cmd.vm["check"].as<bool>(), seconds) && all_ok;
  return all_ok ? 0 : 1;
}

}  // namespace morne::cli
