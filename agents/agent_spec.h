#pragma once
// Agent spec strings: NAME or NAME:key=value,key=value. One parser for every place an agent is
// named (command line, config files, the engine protocol), so a spec means the same thing
// everywhere. What each name means is in agents/agent_kinds.h.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace morne::agents {

struct AgentSpec {
  std::string name;
  std::map<std::string, std::string> params;
};

// Parses a spec string. Throws ConfigError naming the spec and the problem.
AgentSpec parseAgentSpec(std::string_view text);

// The spec string of `spec`: NAME, or NAME:key=value,... with the parameters in sorted order.
std::string specText(const AgentSpec& spec);

// The spec string of `spec` with the search budget `budget` ("sims", "ms" or "turn_ms") set to
// `value` and the other two budgets dropped, its other parameters kept. Throws as
// parseAgentSpec.
std::string withBudget(std::string_view spec, const std::string& budget, int64_t value);

// `spec` with its network file: "az:sims=32" -> "az:sims=32,model=PATH" (the spec's own text
// kept, so that names in records stay as they were). Throws ConfigError when `spec` does not
// parse, already names a model, or `path` holds a ',', ':' or white space, which a spec cannot
// carry.
std::string withModel(std::string_view spec, const std::string& path);

}  // namespace morne::agents
