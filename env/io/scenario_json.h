#pragma once
// Loading scenarios from their JSON form (docs/scenario-format.md). Loading validates every
// field and reports every problem with its place (file, JSON pointer) and reason; nothing is
// silently repaired or defaulted beyond the documented defaults.

#include <memory>
#include <string>
#include <string_view>

#include "env/scenario.h"

namespace morne::env {

// The format tag a scenario file must carry in its "format" field.
inline constexpr std::string_view kScenarioFormat = "morne-scenario/1";

// Parses and validates a scenario from JSON text. `source` names the text in error messages
// (a file path, "<inline>", a built-in name). Throws ValidationError listing every problem.
std::shared_ptr<const Scenario> parseScenario(std::string_view json_text,
                                              const std::string& source);

// Reads a scenario file. Throws IoError if it cannot be read, ValidationError if it is invalid.
std::shared_ptr<const Scenario> loadScenarioFile(const std::string& path);

// The scenario's rule switches as a JSON object text with every switch and its value.
std::string ruleSwitchesJson(const RuleSwitches& rules);

}  // namespace morne::env
