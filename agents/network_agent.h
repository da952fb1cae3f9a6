#pragma once
// The network agent ("az" specs): AlphaZero-style search (mcts/search.h, PUCT with the rules'
// chance nodes) whose evaluator is the policy-value network: priors are the softmax of the
// policy logits over the legal actions, the value is the network's expected result for the
// side to move. LibTorch-free: the network comes through agents/network.h.
//
// Spec: az:model=FILE,sims=64,cpuct=1.5,threads=1,nodes=4194304,reuse=1 (or ms=...)

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "agents/agent.h"
#include "agents/network.h"
#include "mcts/search.h"

namespace morne::agents {

struct NetworkAgentParams {
  mcts::SearchParams search;
  std::string model;  // network file (agents/network.h)
};

// Reads the parameters of an "az" spec; throws ConfigError on an unknown key, a bad value or a
// missing model.
NetworkAgentParams parseNetworkAgentParams(const std::map<std::string, std::string>& params);

// Loads one copy of the network; each search thread gets its own.
using NetworkLoader = std::function<std::unique_ptr<Network>()>;

std::unique_ptr<Agent> makeNetworkAgent(const NetworkAgentParams& params, const NetworkLoader& load,
                                        uint64_t seed);

// The evaluator over one network, batch by batch (mcts::evaluateOneByOne makes a one-position
// evaluator of it). Throws ConfigError at the first position of a scenario the network was not
// made for (another map size or action space).
//
// With `fixed_batch` > 0 the network always runs on exactly that many positions: smaller
// batches are padded, larger ones split. LibTorch's CPU kernels give a position bitwise the
// same outputs whatever its companions in a batch of one size, but not across sizes (measured:
// a position alone and in a batch of 2..32 differ in the last bits), so a fixed size makes
// every evaluation a function of the position alone and self-play data independent of how
// games share batches.
std::unique_ptr<mcts::BatchEvaluator> makeNetworkEvaluator(std::unique_ptr<Network> network,
                                                           int fixed_batch = 0);

// Registers "az" with agent specs (agents/agent_spec.h), loading networks from files. Defined
// with the network (agents/torch/), so only programs that link LibTorch can call it.
void registerNetworkAgents();

}  // namespace morne::agents
