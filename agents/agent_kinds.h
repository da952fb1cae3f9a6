#pragma once
// The agent kinds, one row each (agents/agent_kinds.cpp): what the name of a spec means, its
// parameters, how its agents are made, whether it has a lock-step form, and its catalog line.
// Adding a kind is adding a row.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "agents/spec_params.h"
#include "mcts/evaluator.h"
#include "mcts/search_params.h"

namespace morne::agents {

// What self-play needs to run a kind's search agents in lock-step across many games
// (agents/lockstep_agent.h, training/selfplay.h): their search settings and a maker of batch
// evaluators, one per thread. `make_evaluator(batch)` gives an evaluator that evaluates `batch`
// positions at a time whatever it is handed (padding or splitting; 0: as handed), so that a
// position's value does not depend on which positions shared its batch.
struct BatchedSearch {
  mcts::SearchParams search;
  std::function<std::unique_ptr<mcts::BatchEvaluator>(int batch)> make_evaluator;
};

struct AgentKind {
  std::string_view name;
  std::string_view summary;  // what it does, for the catalog
  // Its parameters (agents/spec_params.h).
  std::vector<SpecParamInfo> (*parameters)();
  // The agent `spec` describes, seeded with `seed`. Throws ConfigError on a bad parameter.
  std::unique_ptr<Agent> (*make)(const AgentSpec& spec, uint64_t seed);
  // Its lock-step form, or null when it has none.
  BatchedSearch (*lockstep)(const AgentSpec& spec);
};

// Every agent kind, in catalog order.
std::span<const AgentKind> agentKinds();

// Builds the agent a spec names, seeded with `seed`. An unknown agent name or parameter throws
// ConfigError listing what is accepted.
std::unique_ptr<Agent> makeAgent(std::string_view spec, uint64_t seed);

// The lock-step form of `spec` when its kind has one ("az"), else nothing. Throws ConfigError
// as makeAgent does.
std::optional<BatchedSearch> makeBatchedSearch(std::string_view spec);

// The agent kinds with their parameters, defaults and help (for `morne help` and docs).
std::string agentCatalog();

}  // namespace morne::agents
