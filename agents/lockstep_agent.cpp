#include "agents/lockstep_agent.h"

#include "agents/search_agent.h"
#include "env/agent_actions.h"
#include "env/check.h"

namespace morne::agents {

LockstepSearchAgent::LockstepSearchAgent(const mcts::SearchParams& params, uint64_t seed)
    : search_(params, seed) {
  MORNE_CHECK(params.threads == 1, "a lock-step search runs one tree");
}

void LockstepSearchAgent::begin(const env::GameState& s, int simulations, bool noise) {
  root_ = &s;
  env::agentActions(s, legal_, search_.params().prune);
  only_.reset();
  if (legal_.size() == 1) {
    only_ = legal_[0];
    return;
  }
  search_.begin(s, simulations, noise);
}

const mcts::LeafRequest* LockstepSearchAgent::next() { return only_ ? nullptr : search_.next(); }

void LockstepSearchAgent::complete(double value) { search_.complete(value); }

Decision LockstepSearchAgent::decision() const {
  if (only_) return onlyAction(*only_);
  const mcts::TreeSearch* trees[] = {&search_};
  return decisionFrom(mcts::summarizeSearch(*root_, trees));
}

}  // namespace morne::agents
