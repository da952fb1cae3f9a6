#pragma once
// The agents an engine session keeps for "genmove" and "analyze": one per spec, so that an
// agent's search tree serves the whole game, at most kMaxKeptAgents (the least recently used
// goes first). Specs that differ only in their budget (sims, ms, turn_ms) share one agent,
// whose budget is set to the spec's: changing the time per move keeps the tree.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "agents/agent.h"

namespace morne::engine {

inline constexpr size_t kMaxKeptAgents = 8;  // genmove agents kept at once, least recent dropped

class KeptAgents {
 public:
  // The agent kept for `spec`, made with `seed` on first use. Throws ConfigError for a bad
  // spec (then nothing is kept for it).
  agents::Agent& agentFor(const std::string& spec, uint64_t seed);
  // Drops every agent (a new game).
  void clear() { agents_.clear(); }
  size_t size() const { return agents_.size(); }

 private:
  struct Kept {
    std::unique_ptr<agents::Agent> agent;
    uint64_t last_used = 0;
  };
  std::map<std::string, Kept> agents_;
  uint64_t uses_ = 0;
};

}  // namespace morne::engine
