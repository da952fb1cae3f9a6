#pragma once
// The greedy agent: one ply of expectimax. It tries every agent action, averages the static
// evaluation over the dice that follow (exactly, with their probabilities) and plays the best.
// The worked example of docs/agents.md, "Write your own agent": a test keeps that text and
// these files the same.

#include <memory>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "agents/heuristics.h"
#include "agents/spec_params.h"

namespace morne::agents {

// Spec: greedy (dice=0: evaluate the position right after the action, dice still pending).
class GreedyAgent : public Agent {
 public:
  explicit GreedyAgent(bool dice) : dice_(dice) {}
  Decision decide(const env::GameState& s) override;
  std::string spec() const override;

 private:
  // The expected value of `s` for blue, in [-1, 1], over the dice pending in it.
  double expectedValue(const env::GameState& s);

  Heuristics heuristics_;
  bool dice_;
};

// The "greedy" kind (agents/agent_kinds.h).
std::vector<SpecParamInfo> greedyAgentParameters();
std::unique_ptr<Agent> makeGreedyAgent(const AgentSpec& spec, uint64_t seed);

}  // namespace morne::agents
