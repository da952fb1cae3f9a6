#pragma once
// The network agent ("az" specs): AlphaZero-style search (mcts/search.h, PUCT with the rules'
// chance nodes) whose evaluator is a policy-value network. agents/ never sees the network: the
// program hands in a loader (setNetworkLoader) that turns a network file into a batch
// evaluator (cli/main.cpp wires nn/network_evaluator.h and nn/torch/ in).
//
// Spec: az:model=FILE,sims=64,cpuct=1.5,threads=1,batch=8,vloss=1,precision=auto,mix=0,
// rule_prior=0 (and every search parameter, agents/spec_params.h)

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "agents/batched_search.h"
#include "agents/mixed_evaluator.h"
#include "agents/spec_params.h"
#include "mcts/evaluator.h"
#include "mcts/search_params.h"

namespace morne::agents {

// The arithmetic of the network's evaluations: float32, or bfloat16 (faster where the CPU has
// the instructions: nn::Network::useBFloat16), or auto: bfloat16 where the CPU has them, else
// float32 (lock-step self-play takes auto as float32, so that its training data do not depend
// on the CPU).
enum class NetworkPrecision { kAuto, kFloat32, kBFloat16 };

struct NetworkAgentParams {
  NetworkAgentParams() {
    search.simulations = 64;
    search.batch = 8;
  }
  mcts::SearchParams search;
  std::string model;  // network file
  NetworkPrecision precision = NetworkPrecision::kAuto;
  LeafMix mix;  // the mcts agent's rollout value and rule priors mixed in (play-time search only)
};

// What a loader loads: the network file, the batch its evaluator pads to
// (nn::makeNetworkEvaluator's `fixed_batch`; 0: the batch as given) and its precision.
struct NetworkLoad {
  std::string model;
  int fixed_batch = 0;
  NetworkPrecision precision = NetworkPrecision::kFloat32;
};

// Loads a network as a batch evaluator. Throws IoError or ConfigError on a bad file, and
// ConfigError for a precision this machine cannot compute in.
using NetworkLoader = std::function<std::unique_ptr<mcts::BatchEvaluator>(const NetworkLoad&)>;

// Sets the loader of the "az" agents; call once at start-up, before any thread starts. Without
// one, an "az" spec is refused with a ConfigError.
void setNetworkLoader(NetworkLoader load);

// Reads the parameters of an "az" spec; throws ConfigError on an unknown key, a bad value or a
// missing model.
NetworkAgentParams parseNetworkAgentParams(const std::map<std::string, std::string>& params);

// The "az" kind (agents/agent_kinds.h). The network file is loaded once when the agent is made,
// so that a bad file fails at once and not in a search thread.
std::vector<SpecParamInfo> networkAgentParameters();
std::unique_ptr<Agent> makeNetworkAgent(const AgentSpec& spec, uint64_t seed);
BatchedSearch networkLockstepSearch(const AgentSpec& spec);

}  // namespace morne::agents
