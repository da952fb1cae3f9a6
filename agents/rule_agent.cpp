#include "agents/rule_agent.h"

#include "env/agent_actions.h"
#include "env/check.h"
#include "env/rules.h"

namespace morne::agents {

namespace {

struct RuleAgentParams {
  bool prune = true;
};

const std::vector<SpecParam<RuleAgentParams>> kRuleRows = {
    wholeParam("prune", &RuleAgentParams::prune, 0, 1,
               "1: no step back into a hex just left (docs/actions.md); 0: every legal action")};

}  // namespace

std::vector<SpecParamInfo> ruleAgentParameters() {
  return describeRows<RuleAgentParams>(kRuleRows);
}

std::unique_ptr<Agent> makeRuleAgent(const AgentSpec& spec, uint64_t /*seed*/) {
  RuleAgentParams p;
  readSpecParams<RuleAgentParams>("rule", kRuleRows, spec.params, p);
  return std::make_unique<RuleAgent>(HeuristicWeights{}, p.prune);
}

std::string RuleAgent::spec() const {
  const std::string params = specParamsText<RuleAgentParams>(kRuleRows, RuleAgentParams{prune_});
  return params.empty() ? "rule" : "rule:" + params;
}

Decision RuleAgent::decide(const env::GameState& s) {
  env::ActionList legal;
  env::agentActions(s, legal, prune_);
  MORNE_CHECK(!legal.empty(), "rule agent asked to decide at a position without actions");
  std::array<double, env::kMaxLegalActions> scores;
  const size_t best = heuristics_.scoreAll(s, std::span(legal.begin(), legal.size()), scores);
  Decision d;
  d.action = legal[best];
  d.info.root_value = (s.side == 0 ? 1 : -1) * heuristics_.evaluate(s);
  for (size_t i = 0; i < legal.size(); ++i)
    d.info.children.push_back({legal[i], 0, scores[i], 0, 0});
  return d;
}

}  // namespace morne::agents
