#include "agents/rule_agent.h"

#include <cassert>

#include "env/agent_actions.h"
#include "env/rules.h"

namespace morne::agents {

Decision RuleAgent::decide(const env::GameState& s) {
  env::ActionList legal;
  env::agentActions(s, legal, prune_);
  assert(!legal.empty());
  std::array<double, env::kMaxLegalActions> scores;
  const size_t best = heuristics_.scoreAll(s, std::span(legal.begin(), legal.size()), scores);
  Decision d;
  d.action = legal[best];
  d.info.root_value = (s.side == 0 ? 1 : -1) * heuristics_.evaluate(s);
  for (size_t i = 0; i < legal.size(); ++i) d.info.children.push_back({legal[i], 0, scores[i], 0});
  return d;
}

}  // namespace morne::agents
