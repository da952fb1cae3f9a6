#include "agents/network_agent.h"

#include "agents/model_library.h"
#include "agents/search_agent.h"
#include "env/error.h"

namespace morne::agents {

namespace {

const std::vector<SpecParam<NetworkAgentParams>>& rows() {
  static const std::vector<SpecParam<NetworkAgentParams>> table = [] {
    std::vector<SpecParam<NetworkAgentParams>> r = {
        {"model",
         SpecParam<NetworkAgentParams>::Kind::kText,
         0,
         0,
         {},
         Shown::kAlways,
         "network file, or the name of a model shipped with morne (models/NAME.pt)",
         nullptr,
         nullptr,
         [](const NetworkAgentParams& p) { return p.model; },
         [](NetworkAgentParams& p, const std::string& v) { p.model = v; }}};
    for (auto& row : liftRows(searchParamRows(), &NetworkAgentParams::search))
      r.push_back(std::move(row));
    return r;
  }();
  return table;
}

NetworkLoader& loader() {
  static NetworkLoader load;
  return load;
}

// The loader, after loading `model` once to check it.
const NetworkLoader& checkedLoader(const std::string& model) {
  if (!loader()) throw ConfigError("az: this program cannot load networks");
  loader()(model, 0);
  return loader();
}

}  // namespace

void setNetworkLoader(NetworkLoader load) { loader() = std::move(load); }

NetworkAgentParams parseNetworkAgentParams(const std::map<std::string, std::string>& params) {
  NetworkAgentParams p;
  readSpecParams<NetworkAgentParams>("az", rows(), params, p);
  checkSearchParams("az", p.search);
  if (p.model.empty()) throw ConfigError("az: give the network file, az:model=FILE");
  p.model = modelFile(p.model);
  return p;
}

std::vector<SpecParamInfo> networkAgentParameters() {
  return describeRows<NetworkAgentParams>(rows());
}

std::unique_ptr<Agent> makeNetworkAgent(const AgentSpec& spec, uint64_t seed) {
  const NetworkAgentParams params = parseNetworkAgentParams(spec.params);
  const NetworkLoader& load = checkedLoader(params.model);
  return std::make_unique<SearchAgent>(
      params.search,
      [load, model = params.model](uint64_t) { return mcts::evaluateOneByOne(load(model, 0)); },
      seed, searchAgentText("az", params, rows()));
}

BatchedSearch networkLockstepSearch(const AgentSpec& spec) {
  const NetworkAgentParams params = parseNetworkAgentParams(spec.params);
  const NetworkLoader& load = checkedLoader(params.model);
  return BatchedSearch{params.search,
                       [load, model = params.model](int batch) { return load(model, batch); }};
}

}  // namespace morne::agents
