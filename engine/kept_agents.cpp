#include "engine/kept_agents.h"

#include "agents/agent_kinds.h"
#include "agents/search_agent.h"

namespace morne::engine {

agents::Agent& KeptAgents::agentFor(const std::string& spec, uint64_t seed) {
  // The key: the spec without its budget keys, parameters in sorted order.
  agents::AgentSpec parsed = agents::parseAgentSpec(spec);
  std::map<std::string, std::string> budget;
  for (auto it = parsed.params.begin(); it != parsed.params.end();) {
    if (agents::isBudgetKey(it->first)) {
      budget.insert(*it);
      it = parsed.params.erase(it);
    } else {
      ++it;
    }
  }
  const std::string key = agents::specText(parsed);

  Kept& kept = agents_[key];
  kept.last_used = ++uses_;
  if (kept.agent) {
    kept.agent->setBudget(budget);
  } else {
    try {
      kept.agent = agents::makeAgent(spec, seed);
    } catch (...) {
      agents_.erase(key);
      throw;
    }
    if (agents_.size() > kMaxKeptAgents) {
      auto oldest = agents_.begin();
      for (auto it = agents_.begin(); it != agents_.end(); ++it) {
        if (it->second.last_used < oldest->second.last_used) oldest = it;
      }
      agents_.erase(oldest);
    }
  }
  return *kept.agent;
}

}  // namespace morne::engine
