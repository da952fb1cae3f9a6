#pragma once
// How the network loader crosses from morne._torch (which links LibTorch) to morne._core
// (which does not, so that `import morne` stays light): _torch hands a capsule of this table
// to _core's _use_network_loader the first time an "az" spec is used. Both modules are built
// from the same sources and flags, so the types behind the pointer are the same.

#include <memory>

#include "agents/network_agent.h"
#include "mcts/evaluator.h"

namespace morne::python {

inline constexpr const char* kNetworkLoaderCapsule = "morne.network_loader";

struct NetworkLoaderTable {
  std::unique_ptr<mcts::BatchEvaluator> (*load)(const agents::NetworkLoad& what);
};

}  // namespace morne::python
