#pragma once
// The rule-based opponent, in the style of a classic wargame AI: every legal action is scored
// by the heuristics (agents/heuristics.h) and the best one is played, one atomic action at a
// time. It takes the attacks with the best expected result first (so victorious units then
// support the next ones), fires at the most valuable targets, keeps guns and generals out of
// contact, goes for the objectives and holds them, and prefers defensive terrain. It ends a
// phase when no action scores above zero. Deterministic (no randomness at all).

#include "agents/agent.h"
#include "agents/heuristics.h"

namespace morne::agents {

class RuleAgent : public Agent {
 public:
  explicit RuleAgent(HeuristicWeights weights = {}) : heuristics_(weights) {}
  Decision decide(const env::GameState& s) override;
  std::string spec() const override { return "rule"; }

 private:
  Heuristics heuristics_;
};

}  // namespace morne::agents
