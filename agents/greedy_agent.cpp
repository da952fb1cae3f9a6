#include "agents/greedy_agent.h"

#include "env/agent_actions.h"
#include "env/check.h"
#include "env/rules.h"
#include "mcts/tree_search.h"

namespace morne::agents {

namespace {

struct GreedyParams {
  bool dice = true;
};

const std::vector<SpecParam<GreedyParams>> kGreedyRows = {
    wholeParam("dice", &GreedyParams::dice, 0, 1,
               "1: average over the dice that follow an action; 0: evaluate before them")};

}  // namespace

std::vector<SpecParamInfo> greedyAgentParameters() {
  return describeRows<GreedyParams>(kGreedyRows);
}

std::unique_ptr<Agent> makeGreedyAgent(const AgentSpec& spec, uint64_t /*seed*/) {
  GreedyParams p;
  readSpecParams<GreedyParams>("greedy", kGreedyRows, spec.params, p);
  return std::make_unique<GreedyAgent>(p.dice);
}

std::string GreedyAgent::spec() const {
  const std::string params = specParamsText<GreedyParams>(kGreedyRows, GreedyParams{dice_});
  return params.empty() ? "greedy" : "greedy:" + params;
}

double GreedyAgent::expectedValue(const env::GameState& s) {
  if (s.isTerminal()) return mcts::terminalValue(s);
  if (!dice_ || !s.isChanceNode()) return heuristics_.evaluate(s);
  env::ChanceList outcomes;
  env::chanceOutcomes(s, outcomes);
  double value = 0;
  for (const env::ChanceOutcome& o : outcomes) {
    env::GameState next = s;
    env::applyChance(next, o.value);
    value += o.probability() * expectedValue(next);
  }
  return value;
}

Decision GreedyAgent::decide(const env::GameState& s) {
  env::ActionList legal;
  env::agentActions(s, legal, /*prune=*/true);
  MORNE_CHECK(!legal.empty(), "greedy agent asked to decide at a position without actions");
  const double sign = s.side == 0 ? 1 : -1;  // values are blue's; the side to move maximises
  Decision d;
  double best = -2;
  for (const env::Action a : legal) {
    env::GameState next = s;
    env::applyAction(next, a);
    const double value = sign * expectedValue(next);
    d.info.children.push_back({a, 0, value, 0, 0});
    if (value > best) {
      best = value;
      d.action = a;
    }
  }
  d.info.root_value = best;
  return d;
}

}  // namespace morne::agents
