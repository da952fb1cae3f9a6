#pragma once
// The agent interface: anything that picks the phasing player's next action. Agents are made
// from spec strings ("random", "rule", "mcts:sims=800,cpuct=1.2,threads=2") the same way in
// the CLI, config files, the arena and the protocol (agents/agent_spec.h).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "env/action.h"
#include "env/error.h"
#include "env/game_state.h"

namespace morne::agents {

// One ply of a game or of a search line: a decision, or the outcome of a chance event.
struct Ply {
  bool chance = false;
  env::Action action;  // when !chance
  int outcome = 0;     // when chance: the value drawn
};

// What an agent knows about one candidate action at the root of its decision.
struct ActionStat {
  env::Action action;
  int visits = 0;     // search visits (0 for agents that do not search)
  double value = 0;   // for the side to move: mean search value, or the rule agent's score
  double prior = 0;   // the prior probability the agent gave it
  double policy = 0;  // its share of the agent's policy target (self-play), 0 when none
};

// How an agent reached its decision (what the protocol's genmove reports).
struct SearchInfo {
  int simulations = 0;
  double seconds = 0;
  size_t nodes = 0;       // search tree nodes after the decision
  double root_value = 0;  // for the side to move, in [-1, 1]
  std::vector<ActionStat> children;
  bool sampled = false;  // the action was drawn at random by the agent itself
  std::vector<Ply> principal_variation;
};

struct Decision {
  env::Action action;
  SearchInfo info;
};

class Agent {
 public:
  virtual ~Agent() = default;

  // Decides the next action. Precondition: `s` is a decision node (neither a chance node nor
  // terminal). Deterministic for a given seed and sequence of calls when the agent's budget is
  // counted in simulations (a time budget depends on the machine's speed). Not thread-safe: one
  // agent object serves one game at a time; many agents may run at once.
  virtual Decision decide(const env::GameState& s) = 0;

  // The action alone.
  env::Action chooseAction(const env::GameState& s) { return decide(s).action; }

  // The spec string that rebuilds this agent, seed excluded ("random").
  virtual std::string spec() const = 0;

  // Sets the thinking budget from the budget keys of a spec (sims, ms, turn_ms; those absent
  // take the agent kind's defaults) and keeps what the agent has learnt so far: a search keeps
  // its tree. Agents that do not search have no budget and ignore it. Throws ConfigError on a
  // bad value.
  virtual void setBudget(const std::map<std::string, std::string>& budget) {
    if (!budget.empty())
      throw ConfigError(spec() + ": this agent does not search; it has no budget");
  }
};

}  // namespace morne::agents
