#pragma once
// The agent kinds, one row each (agents/agent_kinds.cpp): what the name of a spec means, its
// parameters, how its agents are made, whether it has a lock-step form, and its catalog line.
// Adding a kind is adding a row.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "agents/batched_search.h"
#include "agents/spec_params.h"

namespace morne::agents {

struct AgentKind {
  std::string_view name;
  std::string_view summary;  // what it does, for the catalog
  // Its parameters (agents/spec_params.h).
  std::vector<SpecParamInfo> (*parameters)();
  // The agent `spec` describes, seeded with `seed`. Throws ConfigError on a bad parameter.
  std::unique_ptr<Agent> (*make)(const AgentSpec& spec, uint64_t seed);
  // Its lock-step form, or null when it has none.
  BatchedSearch (*lockstep)(const AgentSpec& spec);
  // Whether its agents start a program the spec names (a server, a remote worker refuses it).
  bool starts_program = false;
};

// Every agent kind, in catalog order.
std::span<const AgentKind> agentKinds();

// Builds the agent a spec names, seeded with `seed`. An unknown agent name or parameter throws
// ConfigError listing what is accepted.
std::unique_ptr<Agent> makeAgent(std::string_view spec, uint64_t seed);

// The lock-step form of `spec` when its kind has one ("az"), else nothing. Throws ConfigError
// as makeAgent does.
std::optional<BatchedSearch> makeBatchedSearch(std::string_view spec);

// Whether the agents of `spec` start a program the spec names ("ext"). Throws ConfigError as
// makeAgent does on an unknown agent name.
bool startsProgram(std::string_view spec);

// The agent kinds with their parameters, defaults and help (for `morne help` and docs).
std::string agentCatalog();

}  // namespace morne::agents
