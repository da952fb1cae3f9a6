#pragma once
// The search's evaluator over a policy-value network (nn/network.h): priors are the softmax of
// the policy logits over the legal actions, the value is the network's expected result for the
// side to move. LibTorch-free; the network itself comes from nn/torch/.

#include <memory>

#include "mcts/evaluator.h"
#include "nn/network.h"

namespace morne::nn {

// The evaluator over one network, batch by batch (mcts::evaluateOneByOne makes a one-position
// evaluator of it). Throws ConfigError at the first position of a scenario the network cannot
// play (checkNetworkFits); an any-map network plays positions of several scenarios, one
// scenario a batch.
//
// With `fixed_batch` > 0 the network always runs on exactly that many positions: smaller
// batches are padded, larger ones split. LibTorch's CPU kernels give a position bitwise the
// same outputs whatever its companions in a batch of one size, but not across sizes (measured:
// a position alone and in a batch of 2..32 differ in the last bits), so a fixed size makes
// every evaluation a function of the position alone and self-play data independent of how
// games share batches.
std::unique_ptr<mcts::BatchEvaluator> makeNetworkEvaluator(std::unique_ptr<Network> network,
                                                           int fixed_batch = 0);

}  // namespace morne::nn
