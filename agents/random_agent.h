#pragma once
// The uniform random agent: every legal action equally likely, from its own seeded generator.

#include "agents/agent.h"
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

}  // namespace morne::agents
