#pragma once
// The texts of the scenarios built into the binary (configs/scenarios/*.json, embedded at build
// time by cmake/embed_scenarios.cmake). env/io/scenario_library.h loads them by name.

#include <vector>

namespace morne::env {

struct BuiltinScenario {
  const char* name;
  const char* json;
};

// All built-in scenarios, sorted by name.
const std::vector<BuiltinScenario>& builtinScenarios();

}  // namespace morne::env
