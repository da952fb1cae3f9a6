#pragma once
// The uniform random agent: every legal action equally likely, from its own seeded generator.

#include <memory>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "agents/spec_params.h"
#include "env/rng.h"

namespace morne::agents {

class RandomAgent : public Agent {
 public:
  explicit RandomAgent(uint64_t seed) : rng_(seed) {}
  Decision decide(const env::GameState& s) override;
  std::string spec() const override { return "random"; }

 private:
  env::Rng rng_;
};

// The "random" kind (agents/agent_kinds.h). It takes no parameters: its seed comes from the
// game seed.
std::vector<SpecParamInfo> randomAgentParameters();
std::unique_ptr<Agent> makeRandomAgent(const AgentSpec& spec, uint64_t seed);

}  // namespace morne::agents
