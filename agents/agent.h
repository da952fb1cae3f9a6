#pragma once
// The agent interface: anything that picks the phasing player's next action. Agents are made
// from spec strings ("random", "rule", "mcts:sims=800,cpuct=1.2,threads=2") the same way in
// the CLI, config files, the arena and the protocol (agents/agent_spec.h).

#include <atomic>
#include <map>
#include <string>

#include "env/action.h"
#include "env/error.h"
#include "env/game_state.h"
#include "mcts/search_result.h"

namespace morne::agents {

// One ply of a game: a decision, or the outcome of a chance event (the record a search line
// is made of, mcts/search_result.h).
using Ply = mcts::LineStep;

// An agent's decision and how it reached it: a search's report (mcts/search_result.h; what the
// protocol's genmove shows). Agents that do not search fill only `children`, with their own
// scores as values.
struct Decision {
  env::Action action;
  mcts::SearchResult info;
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
  // While *stop is true (when `stop` is not null), decide() returns as soon as it has a
  // choice: a search stops after its next simulation with the best action found so far.
  // Agents that do not search decide at once anyway and ignore it.
  virtual void setStopFlag(const std::atomic<bool>* /*stop*/) {}
  // Caps the time of every decision at `milliseconds` (0: no cap), whatever the budget: a search
  // ends then with what it has. Agents that do not search ignore it.
  virtual void setTimeCap(double /*milliseconds*/) {}
};

}  // namespace morne::agents
