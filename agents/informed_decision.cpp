#include "agents/informed_decision.h"

#include "env/rules.h"
#include "env/visibility.h"

namespace morne::agents {

env::GameState positionToDecideFrom(const env::GameState& s) {
  return env::hidesAny(s, s.side) ? env::publicView(s, s.side) : s;
}

env::Action legalChoice(const env::GameState& s, env::Action a, const Decision& d) {
  if (env::isLegal(s, a)) return a;
  const mcts::RootChild* best = nullptr;
  for (const mcts::RootChild& c : d.info.children) {
    if (env::isLegal(s, c.action) && (!best || c.visits > best->visits)) best = &c;
  }
  if (best) return best->action;
  env::ActionList legal;
  env::legalActions(s, legal);
  return legal[0];
}

Decision decideWithWhatItKnows(Agent& agent, const env::GameState& s) {
  if (!env::hidesAny(s, s.side)) return agent.decide(s);
  Decision d = agent.decide(env::publicView(s, s.side));
  d.action = legalChoice(s, d.action, d);
  return d;
}

}  // namespace morne::agents
