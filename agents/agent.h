#pragma once
// The agent interface: anything that picks the phasing player's next action. Agents are made
// from spec strings ("random", later "mcts:sims=800,cpuct=1.2") the same way in the CLI, config
// files and the protocol (agents/agent_spec.h).

#include <memory>
#include <string>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::agents {

class Agent {
 public:
  virtual ~Agent() = default;

  // Chooses the next action. Precondition: `s` is a decision node (neither a chance node nor
  // terminal). Deterministic for a given seed and sequence of calls. Not thread-safe: one
  // agent object serves one game at a time.
  virtual env::Action chooseAction(const env::GameState& s) = 0;

  // The spec string that rebuilds this agent, seed excluded ("random").
  virtual std::string spec() const = 0;
};

}  // namespace morne::agents
