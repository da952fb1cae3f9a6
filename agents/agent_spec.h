#pragma once
// Agent spec strings: NAME or NAME:key=value,key=value. One parser for every place an agent is
// named (command line, config files, the engine protocol), so a spec means the same thing
// everywhere.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "agents/agent.h"
#include "mcts/evaluator.h"
#include "mcts/search_params.h"

namespace morne::agents {

struct AgentSpec {
  std::string name;
  std::map<std::string, std::string> params;
};

// Parses a spec string. Throws ConfigError naming the spec and the problem.
AgentSpec parseAgentSpec(std::string_view text);

// The spec string of `spec`: NAME, or NAME:key=value,... with the parameters in sorted order.
std::string specText(const AgentSpec& spec);

// Builds the agent a spec names, seeded with `seed`. Every parameter must be known to that
// agent; an unknown agent name or parameter throws ConfigError listing what is accepted.
std::unique_ptr<Agent> makeAgent(std::string_view spec, uint64_t seed);

// One line per agent kind: name, parameters, what it does (for `morne help` and docs).
std::string agentCatalog();

// Agent kinds that live in other libraries (the network agents of agents/torch) are added by
// the program at start-up, before any thread starts: cli/main.cpp calls
// registerNetworkAgents(). `catalog` is their agentCatalog() text. Registering a name again
// replaces it.
using AgentMaker = std::function<std::unique_ptr<Agent>(const AgentSpec& spec, uint64_t seed)>;

// What self-play needs to run a search agent in lock-step across many games
// (training/selfplay.h): its search settings and a maker of batch evaluators, one per thread.
// `make_evaluator(batch)` gives an evaluator that evaluates `batch` positions at a time
// whatever it is handed (padding or splitting), so that a position's value does not depend on
// which positions shared its batch.
struct BatchedSearch {
  mcts::SearchParams search;
  std::function<std::unique_ptr<mcts::BatchEvaluator>(int batch)> make_evaluator;
};
using BatchedMaker = std::function<BatchedSearch(const AgentSpec& spec)>;

// `batched`, when given, makes the lock-step form of the kind's agents.
void registerAgentKind(const std::string& name, AgentMaker maker, const std::string& catalog,
                       BatchedMaker batched = nullptr);

// The lock-step form of `spec` when its kind has one ("az"), else nothing. Throws ConfigError
// as makeAgent does.
std::optional<BatchedSearch> makeBatchedSearch(std::string_view spec);

}  // namespace morne::agents
