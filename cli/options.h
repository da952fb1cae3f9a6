#pragma once
// Option handling shared by every subcommand: Boost.Program_options for the command line, plus
// KataGo-style config files and --set overrides.
//
//   morne play --config configs/play.cfg --set seed=7 --blue random
//
// Config files hold `key = value` lines; `#` starts a comment. Every key must be an option of
// the subcommand: an unknown key (or a `[section]` line) is an error that names the file and
// line. Precedence, highest first: --set overrides,
// command-line flags, the config file, built-in defaults.

#include <boost/program_options.hpp>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace morne::cli {

namespace po = boost::program_options;

struct ParsedCommand {
  po::variables_map vm;
  std::vector<std::string> positional;
  bool help = false;
  // Every option that was set, as "key = value (origin)" lines, for the start-up log.
  std::vector<std::string> settings;
};

// A number option with default `v`, shown in the help in its shortest form ("0.1", not
// "0.10000000000000001").
po::typed_value<double>* numberOption(double v);

// Parses the arguments of subcommand `command` (used in messages) against its options `own`.
// Adds the shared --config, --set and --help. Positional arguments are allowed only when
// `max_positional` > 0 (or -1 for any number). Throws ConfigError with a precise message.
ParsedCommand parseCommand(const std::string& command, const std::vector<std::string>& args,
                           const po::options_description& own, int max_positional);

// The usage text of a subcommand: its synopsis and every option with its help and default.
std::string usageText(const std::string& synopsis, const po::options_description& own);

// `--resume DIR` goes on with the run's own settings (DIR/RECORD): throws ConfigError naming
// the first option given besides --resume, --quiet and those of `may_change`.
void refuseSettingsOnResume(const std::string& command, const po::variables_map& vm,
                            const std::string& record,
                            std::initializer_list<const char*> may_change);

// Reads `key = value` pairs from a config file. Each pair carries its origin "FILE:LINE".
// Throws IoError or ConfigError (malformed line).
struct ConfigEntry {
  std::string key;
  std::string value;
  std::string origin;
};
std::vector<ConfigEntry> readConfigFile(const std::string& path);

// The same for the text of a config file; `path` names it in the origins.
std::vector<ConfigEntry> parseConfigText(const std::string& text, const std::string& path);

// Splits on whitespace, and also on commas when `commas` is set, but not inside single or
// double quotes, which are dropped ("rule 'ext:cmd=python3 bot.py'" is two items).
std::vector<std::string> splitList(const std::string& text, bool commas);

}  // namespace morne::cli
