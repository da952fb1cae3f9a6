#include "agents/random_agent.h"

#include <cassert>

#include "env/rules.h"

namespace morne::agents {

Decision RandomAgent::decide(const env::GameState& s) {
  env::ActionList legal;
  env::legalActions(s, legal);
  assert(!legal.empty());
  return {legal[rng_.below(static_cast<uint32_t>(legal.size()))], {}};
}

}  // namespace morne::agents
