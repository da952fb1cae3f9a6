#pragma once
// The texts of the scenarios built into the binary (configs/scenarios/*.json, embedded at build
// time by cmake/embed_scenarios.cmake, and their un-handicapped twins). env/io/scenario_library.h
// loads them by name.

#include <vector>

namespace morne::env {

struct BuiltinScenario {
  const char* name;
  const char* json;
};

// The suffix of the built-in scenarios played without their handicap: "crossing-unbalanced" is
// "crossing" as it was before it was balanced, so that earlier results can be reproduced.
inline constexpr const char* kUnbalancedSuffix = "-unbalanced";

// All built-in scenarios, sorted by name: the files of configs/scenarios, and an "-unbalanced"
// twin for each of them with a handicap of its own or a base that has a twin. A twin is a file
// of that name when the balancing changed more than the handicap (the objectives), else the
// same document with a handicap of 0, a variant of its base's twin.
const std::vector<BuiltinScenario>& builtinScenarios();

// The files of configs/scenarios as embedded at build time (cmake/embed_scenarios.cmake).
const std::vector<BuiltinScenario>& embeddedScenarioFiles();

}  // namespace morne::env
