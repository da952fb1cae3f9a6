#include "agents/random_agent.h"

#include "env/check.h"
#include "env/rules.h"

namespace morne::agents {

namespace {
struct NoParameters {};
const std::vector<SpecParam<NoParameters>> kRandomRows;
}  // namespace

Decision RandomAgent::decide(const env::GameState& s) {
  env::ActionList legal;
  env::legalActions(s, legal);
  MORNE_CHECK(!legal.empty(), "random agent asked to decide at a position without actions");
  return {legal[rng_.below(static_cast<uint32_t>(legal.size()))], {}};
}

std::vector<SpecParamInfo> randomAgentParameters() {
  return describeRows<NoParameters>(kRandomRows);
}

std::unique_ptr<Agent> makeRandomAgent(const AgentSpec& spec, uint64_t seed) {
  NoParameters p;
  readSpecParams<NoParameters>("random", kRandomRows, spec.params, p);
  return std::make_unique<RandomAgent>(seed);
}

}  // namespace morne::agents
