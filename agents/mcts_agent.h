#pragma once
// The search agent: MCTS (mcts/search.h) guided by the wargame heuristics. The rule agent's
// action scores become the priors (a softmax at `temperature`); a leaf is played on to the end
// of `rollout` player-turns by the rule agent (or at random), then judged by the static
// position evaluation (docs/agents.md has the measurements behind the defaults).
//
// Spec: mcts:sims=800,cpuct=1.5,threads=1,temperature=0.5,scale=0,rollout=1,policy=rule (and
// every search parameter, agents/spec_params.h)

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "agents/heuristics.h"
#include "agents/spec_params.h"
#include "mcts/search.h"

namespace morne::agents {

enum class RolloutPolicy { kRule, kRandom };

struct MctsAgentParams {
  mcts::SearchParams search;
  double temperature = 0.5;  // of the softmax that turns heuristic scores into priors
  int rollout = 1;           // player-turns played out before the static evaluation (0: none)
  RolloutPolicy policy = RolloutPolicy::kRule;          // who plays the rollouts
  double value_scale = HeuristicWeights{}.value_scale;  // leaf value = tanh(score / value_scale)
};

// Reads the parameters of an "mcts" spec; throws ConfigError on an unknown key or bad value.
MctsAgentParams parseMctsParams(const std::map<std::string, std::string>& params);

// The MCTS agent: a SearchAgent (agents/search_agent.h) with the heuristic evaluator.
std::unique_ptr<Agent> makeMctsSearchAgent(const MctsAgentParams& params, uint64_t seed);

// The "mcts" kind (agents/agent_kinds.h).
std::vector<SpecParamInfo> mctsAgentParameters();
std::unique_ptr<Agent> makeMctsAgent(const AgentSpec& spec, uint64_t seed);

// The heuristic evaluator the MCTS agent searches with (exposed for benchmarks and tests).
std::unique_ptr<mcts::Evaluator> makeHeuristicEvaluator(const MctsAgentParams& params,
                                                        uint64_t seed);

}  // namespace morne::agents
