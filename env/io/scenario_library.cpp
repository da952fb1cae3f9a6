#include "env/io/scenario_library.h"

#include <filesystem>

#include "env/error.h"
#include "env/io/scenario_json.h"
#include "env/io/text_file.h"

namespace morne::env {

std::shared_ptr<const Scenario> loadScenario(const std::string& name_or_path) {
  for (const BuiltinScenario& b : builtinScenarios()) {
    if (name_or_path == b.name) return parseScenario(b.json, std::string("built-in ") + b.name);
  }
  std::error_code ec;
  if (name_or_path.find('\0') == std::string::npos && !std::filesystem::exists(name_or_path, ec) &&
      !ec) {
    std::string names;
    for (const BuiltinScenario& b : builtinScenarios()) names += std::string(" ") + b.name;
    throw IoError(printablePath(name_or_path) +
                  ": no such file, and not a built-in scenario (built-in:" + names + ")");
  }
  return loadScenarioFile(name_or_path);
}

}  // namespace morne::env
