#pragma once
// The one scenario loader the CLI and the protocol use: a built-in name
// (env/io/builtin_scenarios.h) or a file path.

#include <memory>
#include <string>
#include <vector>

#include "env/io/builtin_scenarios.h"
#include "env/scenario.h"

namespace morne::env {

// The scenario every command uses when none is named.
inline constexpr const char* kDefaultScenario = "crossing";

// Loads a built-in scenario by name ("crossing"), or else a scenario file by path. Throws
// IoError or ValidationError.
std::shared_ptr<const Scenario> loadScenario(const std::string& name_or_path);

}  // namespace morne::env
