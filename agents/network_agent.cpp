#include "agents/network_agent.h"

#include "agents/mcts_agent.h"
#include "agents/model_library.h"
#include "agents/search_agent.h"
#include "env/error.h"

namespace morne::agents {

namespace {

// A row over one weight of the leaf mix (agents/mixed_evaluator.h), in [0, 1].
SpecParam<NetworkAgentParams> mixWeight(std::string key, double LeafMix::*weight,
                                        std::string help) {
  return {std::move(key),
          SpecParam<NetworkAgentParams>::Kind::kNumber,
          0,
          1,
          {},
          Shown::kChanged,
          std::move(help),
          [weight](const NetworkAgentParams& p) { return p.mix.*weight; },
          [weight](NetworkAgentParams& p, double v) { p.mix.*weight = v; },
          nullptr,
          nullptr};
}

const std::vector<SpecParam<NetworkAgentParams>>& networkRows() {
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
    const std::vector<SpecParam<mcts::SearchParams>> batching = {
        wholeParam("batch", &mcts::SearchParams::batch, 1, 256,
                   "leaves each search thread gathers and evaluates in one batch, with virtual "
                   "loss (play-time search; lock-step self-play batches across games)"),
        numberParam("vloss", &mcts::SearchParams::virtual_loss, 0, 100,
                    "visits lost counted for each simulation in flight while a batch gathers")};
    for (auto& row : liftRows(batching, &NetworkAgentParams::search)) r.push_back(std::move(row));
    r.push_back({"precision",
                 SpecParam<NetworkAgentParams>::Kind::kChoice,
                 0,
                 0,
                 {"auto", "fp32", "bf16"},
                 Shown::kChanged,
                 "arithmetic of the network: bf16 (AVX-512 BF16 CPUs only, refused on others), "
                 "fp32, or auto: bf16 where the CPU has it, else fp32 (docs/agents.md)",
                 MORNE_SPEC_FIELD(NetworkAgentParams, precision)});
    r.push_back(mixWeight("mix", &LeafMix::value,
                          "weight of the mcts agent's rollout in the leaf value: (1-mix) x network "
                          "+ mix x rollout (AlphaGo's lambda; docs/agents.md)"));
    r.push_back(mixWeight("rule_prior", &LeafMix::prior,
                          "weight of the rule agent's priors in the search's priors: (1-w) x "
                          "network + w x rule"));
    return r;
  }();
  return table;
}

NetworkLoader& loader() {
  static NetworkLoader load;
  return load;
}

// The loader, after loading the network of `params` once to check it.
const NetworkLoader& checkedLoader(const NetworkAgentParams& params) {
  if (!loader()) throw ConfigError("az: this program cannot load networks");
  loader()({params.model, 0, params.precision});
  return loader();
}

}  // namespace

void setNetworkLoader(NetworkLoader load) { loader() = std::move(load); }

NetworkAgentParams parseNetworkAgentParams(const std::map<std::string, std::string>& params) {
  NetworkAgentParams p;
  readSpecParams<NetworkAgentParams>("az", networkRows(), params, p);
  checkSearchParams("az", p.search);
  if (p.model.empty()) throw ConfigError("az: give the network file, az:model=FILE");
  p.model = modelFile(p.model);
  return p;
}

std::vector<SpecParamInfo> networkAgentParameters() {
  return describeRows<NetworkAgentParams>(networkRows());
}

std::unique_ptr<Agent> makeNetworkAgent(const AgentSpec& spec, uint64_t seed) {
  const NetworkAgentParams params = parseNetworkAgentParams(spec.params);
  const NetworkLoader& load = checkedLoader(params);
  return std::make_unique<SearchAgent>(
      params.search,
      [load, params, what = NetworkLoad{params.model, 0, params.precision}](
          uint64_t thread_seed) -> std::unique_ptr<mcts::Evaluator> {
        auto network = mcts::evaluateOneByOne(load(what));
        if (!params.mix.any()) return network;
        MctsAgentParams heuristics;  // the mcts agent's defaults: one rule-played player-turn
        heuristics.search.prune = params.search.prune;
        if (params.mix.value == 0) heuristics.rollout = 0;  // its value is not used
        return mixEvaluators(std::move(network), makeHeuristicEvaluator(heuristics, thread_seed),
                             params.mix);
      },
      seed, searchAgentText("az", params, networkRows()));
}

BatchedSearch networkLockstepSearch(const AgentSpec& spec) {
  const NetworkAgentParams params = parseNetworkAgentParams(spec.params);
  if (params.mix.any()) {
    throw ConfigError(
        "az: mix and rule_prior are for play-time search; self-play in lock-step batches the "
        "network's evaluations alone (leave them out, or give --lockstep 0)");
  }
  const NetworkLoader& load = checkedLoader(params);
  const NetworkPrecision precision =
      params.precision == NetworkPrecision::kAuto ? NetworkPrecision::kFloat32 : params.precision;
  return BatchedSearch{params.search, [load, params, precision](int batch) {
                         return load({params.model, batch, precision});
                       }};
}

}  // namespace morne::agents
