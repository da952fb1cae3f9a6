#pragma once
// The loader of the "az" agents (agents/network_agent.h) over nn/: what a program that plays
// networks hands to agents::setNetworkLoader at start-up (cli/main.cpp, and the tests that
// play real network files).

#include <memory>

#include "agents/network_agent.h"
#include "mcts/evaluator.h"

namespace morne::training {

// The network file of `what` as a batch evaluator (nn::makeNetworkEvaluator), in its
// precision (auto: bf16 where the CPU has it). Throws as nn::Network::load, and ConfigError
// for bf16 on a CPU without it.
std::unique_ptr<mcts::BatchEvaluator> loadNetworkEvaluator(const agents::NetworkLoad& what);

}  // namespace morne::training
