#pragma once
// The scenarios built into the binary (configs/scenarios/*.json, embedded at build time) and
// the one loader the CLI and the protocol use: a built-in name or a file path.

#include <memory>
#include <string>
#include <vector>

#include "env/scenario.h"

namespace morne::env {

// The scenario every command uses when none is named.
inline constexpr const char* kDefaultScenario = "crossing";

struct BuiltinScenario {
  const char* name;
  const char* json;
};

// All built-in scenarios, sorted by name.
const std::vector<BuiltinScenario>& builtinScenarios();

// Loads a built-in scenario by name ("crossing"), or else a scenario file by path. Throws
// IoError or ValidationError.
std::shared_ptr<const Scenario> loadScenario(const std::string& name_or_path);

}  // namespace morne::env
