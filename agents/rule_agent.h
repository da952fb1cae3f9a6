#pragma once
// The rule-based opponent, in the style of a classic wargame AI: every agent action is scored
// by the heuristics (agents/heuristics.h) and the best one is played, one atomic action at a
// time. It takes the attacks with the best expected result first (so victorious units then
// support the next ones), fires at the most valuable targets, keeps guns and generals out of
// contact, goes for the objectives and holds them, and prefers defensive terrain. It ends a
// phase when no action scores above zero. Deterministic (no randomness at all).

#include <memory>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "agents/heuristics.h"
#include "agents/spec_params.h"

namespace morne::agents {

// Spec: rule (prune=0: choose among every legal action, steps back included; docs/actions.md).
class RuleAgent : public Agent {
 public:
  explicit RuleAgent(HeuristicWeights weights = {}, bool prune = true)
      : heuristics_(weights), prune_(prune) {}
  Decision decide(const env::GameState& s) override;
  std::string spec() const override;

 private:
  Heuristics heuristics_;
  bool prune_;
};

// The "rule" kind (agents/agent_kinds.h).
std::vector<SpecParamInfo> ruleAgentParameters();
std::unique_ptr<Agent> makeRuleAgent(const AgentSpec& spec, uint64_t seed);

}  // namespace morne::agents
