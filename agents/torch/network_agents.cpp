// registerNetworkAgents(): the "az" agent kind, which loads its network from a file. It lives
// with the network (morne_torch) because loading is LibTorch's work; the agent itself is
// agents/network_agent.cpp.

#include "agents/agent_spec.h"
#include "agents/network_agent.h"

namespace morne::agents {

void registerNetworkAgents() {
  registerAgentKind(
      "az",
      [](const AgentSpec& spec, uint64_t seed) {
        const NetworkAgentParams params = parseNetworkAgentParams(spec.params);
        Network::load(params.model);  // fail at once on a bad file, not in a search thread
        return makeNetworkAgent(
            params, [model = params.model] { return Network::load(model); }, seed);
      },
      "  az        search guided by a policy-value network (docs/agents.md):\n"
      "            az:model=FILE,sims=64 (or ms=T, "
      "turn_ms=T),cpuct=1.5,threads=1,nodes=4194304,reuse=1\n",
      [](const AgentSpec& spec) {
        const NetworkAgentParams params = parseNetworkAgentParams(spec.params);
        Network::load(params.model);
        return BatchedSearch{params.search, [model = params.model](int batch) {
                               return makeNetworkEvaluator(Network::load(model), batch);
                             }};
      });
}

}  // namespace morne::agents
