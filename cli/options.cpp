#include "cli/options.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "core/number_text.h"
#include "env/error.h"
#include "env/io/text_file.h"

namespace morne::cli {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string knownKeys(const po::options_description& own) {
  std::string keys;
  for (const auto& opt : own.options()) keys += (keys.empty() ? "" : ", ") + opt->long_name();
  return keys;
}

// Boost.Program_options builds its error messages by replacing placeholders such as %value%
// with the user's text, again and again until none is left: a value that itself contains
// %value% loops forever (found by fuzzing; Boost 1.74). Text holding anything of the form
// %name% is therefore refused before Boost sees it.
void checkPlaceholders(const std::string& text, const std::string& origin) {
  for (size_t open = text.find('%'); open != std::string::npos; open = text.find('%', open + 1)) {
    size_t end = open + 1;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
      ++end;
    }
    if (end > open + 1 && end < text.size() && text[end] == '%') {
      throw ConfigError(origin + ": \"" + text.substr(open, end - open + 1) +
                        "\" is not allowed in an option or value (the option parser would "
                        "take it for one of its placeholders)");
    }
  }
}

// True when option `key` of `own` holds an unsigned integer, which Boost would read "-1" into
// as 2^64 - 1.
bool isUnsigned(const po::options_description& own, const std::string& key) {
  const po::option_description* d = own.find_nothrow(key, false);
  if (!d) return false;
  const po::value_semantic* v = d->semantic().get();
  return dynamic_cast<const po::typed_value<uint64_t>*>(v) ||
         dynamic_cast<const po::typed_value<unsigned>*>(v) ||
         dynamic_cast<const po::typed_value<unsigned long long>*>(v);
}

// Refuses a negative number for an unsigned option.
void checkSign(const po::options_description& own, const std::string& key, const std::string& value,
               const std::string& origin) {
  if (isUnsigned(own, key) && trim(value).starts_with("-")) {
    throw ConfigError(origin + ": " + key + " = \"" + value +
                      "\": a non-negative integer is required");
  }
}

// Stores one key/value pair into `vm` (first stored wins), checking the key and the value.
void storeEntry(const std::string& command, const po::options_description& own,
                const ConfigEntry& entry, po::variables_map& vm,
                std::vector<std::string>& settings) {
  if (!own.find_nothrow(entry.key, false)) {
    throw ConfigError(entry.origin + ": unknown key \"" + entry.key + "\" for `morne " + command +
                      "` (known: " + knownKeys(own) + ")");
  }
  checkPlaceholders(entry.key + "=" + entry.value, entry.origin);
  checkSign(own, entry.key, entry.value, entry.origin);
  po::parsed_options parsed(&own);
  po::option opt;
  opt.string_key = entry.key;
  opt.value = {entry.value};
  opt.original_tokens = {entry.key, entry.value};
  parsed.options.push_back(opt);
  try {
    const bool already = vm.count(entry.key) && !vm[entry.key].defaulted();
    po::store(parsed, vm);
    if (!already) settings.push_back(entry.key + " = " + entry.value + "  (" + entry.origin + ")");
  } catch (const po::error& e) {
    throw ConfigError(entry.origin + ": " + entry.key + " = \"" + entry.value + "\": " + e.what());
  }
}

}  // namespace

std::vector<ConfigEntry> readConfigFile(const std::string& path) {
  return parseConfigText(env::readTextFile(path, "config file"), path);
}

std::vector<ConfigEntry> parseConfigText(const std::string& text, const std::string& path) {
  std::istringstream file(text);
  std::vector<ConfigEntry> entries;
  std::map<std::string, std::string> first_seen;  // key -> where it was set
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    const std::string origin = path + ":" + std::to_string(number);
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    line = trim(line);
    if (line.empty()) continue;
    if (line.front() == '[') {
      throw ConfigError(origin + ": \"" + line +
                        "\": config files have no sections; every line is `key = value` with a "
                        "key that is an option of the subcommand");
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw ConfigError(origin + ": expected `key = value`");
    const std::string key = trim(line.substr(0, eq));
    if (key.empty()) throw ConfigError(origin + ": missing key before `=`");
    const auto [seen, fresh] = first_seen.emplace(key, origin);
    if (!fresh) {
      throw ConfigError(origin + ": " + key + " is already set at " + seen->second +
                        "; give each key once");
    }
    entries.push_back({key, trim(line.substr(eq + 1)), origin});
  }
  return entries;
}

ParsedCommand parseCommand(const std::string& command, const std::vector<std::string>& args,
                           const po::options_description& own, int max_positional) {
  po::options_description shared("Shared options");
  // clang-format off
  shared.add_options()
      ("config", po::value<std::string>(), "read options from a `key = value` config file")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "override one option, `--set key=value` (repeatable; wins over everything)")
      ("help,h", "show this help");
  // clang-format on
  po::options_description all;
  all.add(own).add(shared);
  all.add_options()("positional", po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add("positional", -1);

  ParsedCommand out;
  po::variables_map cmdline;
  po::parsed_options parsed(&all);
  for (const std::string& arg : args) checkPlaceholders(arg, "argument \"" + arg + "\"");
  try {
    parsed = po::command_line_parser(args).options(all).positional(pos).run();
    po::store(parsed, cmdline);
  } catch (const po::error& e) {
    throw ConfigError(std::string(e.what()) + " (see `morne " + command + " --help`)");
  }
  out.help = cmdline.count("help") > 0;
  if (cmdline.count("positional"))
    out.positional = cmdline["positional"].as<std::vector<std::string>>();
  if (max_positional >= 0 && static_cast<int>(out.positional.size()) > max_positional) {
    throw ConfigError("unexpected argument \"" +
                      out.positional[static_cast<size_t>(max_positional)] + "\" (see `morne " +
                      command + " --help`)");
  }

  // 1. --set overrides.
  std::set<std::string> overridden;
  if (cmdline.count("set")) {
    for (const std::string& item : cmdline["set"].as<std::vector<std::string>>()) {
      const auto eq = item.find('=');
      if (eq == std::string::npos) throw ConfigError("--set " + item + ": expected key=value");
      if (trim(item.substr(0, eq)).empty())
        throw ConfigError("--set " + item + ": missing key before `=`");
      overridden.insert(trim(item.substr(0, eq)));
      storeEntry(command, own, {trim(item.substr(0, eq)), trim(item.substr(eq + 1)), "--set"},
                 out.vm, out.settings);
    }
  }
  // 2. Command-line flags of the subcommand itself.
  for (const po::option& opt : parsed.options) {
    if (opt.string_key == "positional" || opt.string_key == "set" || opt.string_key == "config" ||
        opt.string_key == "help" || opt.unregistered) {
      continue;
    }
    const std::string value = opt.value.empty() ? "true" : opt.value.front();
    for (const std::string& v : opt.value) checkSign(own, opt.string_key, v, "--" + opt.string_key);
    if (overridden.count(opt.string_key)) continue;  // a repeatable flag given twice accumulates
    po::parsed_options one(&own);
    one.options.push_back(opt);
    po::store(one, out.vm);
    out.settings.push_back(opt.string_key + " = " + value + "  (command line)");
  }
  // 3. The config file.
  if (cmdline.count("config")) {
    for (const ConfigEntry& e : readConfigFile(cmdline["config"].as<std::string>())) {
      storeEntry(command, own, e, out.vm, out.settings);
    }
  }
  // 4. Defaults.
  po::parsed_options none(&own);
  po::store(none, out.vm);
  try {
    po::notify(out.vm);
  } catch (const po::error& e) {
    throw ConfigError(std::string(e.what()) + " (see `morne " + command + " --help`)");
  }
  return out;
}

po::typed_value<double>* numberOption(double v) {
  return po::value<double>()->default_value(v, core::shortText(v));
}

std::string usageText(const std::string& synopsis, const po::options_description& own) {
  std::ostringstream out;
  out << "usage: " << synopsis << "\n\n" << own << "\n";
  out << "Shared options:\n"
         "  --config FILE         read options from a config file of `key = value` lines\n"
         "  --set key=value       override one option (repeatable; wins over the file and flags)\n"
         "  -h [ --help ]         show this help\n";
  return out.str();
}

void refuseSettingsOnResume(const std::string& command, const po::variables_map& vm,
                            const std::string& record,
                            std::initializer_list<const char*> may_change) {
  std::string allowed;
  size_t k = 0;
  for (const char* name : may_change) {
    allowed += std::string(k == 0 ? "" : k + 1 == may_change.size() ? " and " : ", ") + "--" + name;
    ++k;
  }
  for (const auto& [given, value] : vm) {
    // A name of its own for the lambda: clang 14 cannot capture a structured binding.
    const std::string& name = given;
    if (value.defaulted() || name == "resume" || name == "quiet") continue;
    if (std::any_of(may_change.begin(), may_change.end(), [&](const char* n) { return name == n; }))
      continue;
    throw ConfigError(command + ": --resume goes on with the run's own settings (" +
                      vm["resume"].as<std::string>() + "/" + record + "); only " + allowed +
                      " may be given, not --" + name);
  }
}

std::vector<std::string> splitList(const std::string& text, bool commas) {
  std::vector<std::string> out;
  std::string item;
  char quote = 0;
  for (char c : text + " ") {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        item += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ' ' || c == '\t' || (commas && c == ',')) {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  if (quote) throw ConfigError(std::string("a quote (") + quote + ") is not closed in: " + text);
  return out;
}

}  // namespace morne::cli
