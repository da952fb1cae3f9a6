#include "agents/network_agent.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "agents/observation.h"
#include "agents/policy_layout.h"
#include "agents/search_agent.h"
#include "env/error.h"

namespace morne::agents {

namespace {

class NetworkEvaluator : public mcts::Evaluator {
 public:
  explicit NetworkEvaluator(std::unique_ptr<Network> network) : network_(std::move(network)) {}

  double evaluate(const env::GameState& s, std::span<const env::Action> legal, std::span<float> priors) override {
    prepare(s.sc());
    encoder_->encode(s, planes_, globals_);
    float value = 0;
    network_->evaluate(1, planes_, globals_, logits_, std::span(&value, 1));
    if (!legal.empty()) {
      float top = -1e30f;
      for (size_t i = 0; i < legal.size(); ++i) {
        priors[i] = logits_[static_cast<size_t>(layout_->index(legal[i]))];
        top = std::max(top, priors[i]);
      }
      float total = 0;
      for (size_t i = 0; i < legal.size(); ++i) total += priors[i] = std::exp(priors[i] - top);
      for (size_t i = 0; i < legal.size(); ++i) priors[i] /= total;
    }
    return s.side == 0 ? value : -value;  // the search keeps values from blue's point of view
  }

 private:
  // Builds the encoders for `sc` the first time, checking the network fits it.
  void prepare(const env::Scenario& sc) {
    if (scenario_ == &sc) return;
    encoder_.emplace(sc);
    layout_.emplace(sc);
    const NetworkConfig& c = network_->config();
    const ObservationShape shape = encoder_->shape();
    if (c.input.planes != shape.planes || c.input.height != shape.height || c.input.width != shape.width ||
        c.input.globals != shape.globals || c.policySize() != layout_->size()) {
      throw ConfigError("network made for scenario \"" + c.scenario + "\" (" + std::to_string(c.input.width) + "x" +
                        std::to_string(c.input.height) + ", " + std::to_string(c.policySize()) +
                        " policy entries) cannot play \"" + sc.name() + "\" (" + std::to_string(shape.width) + "x" +
                        std::to_string(shape.height) + ", " + std::to_string(layout_->size()) + ")");
    }
    planes_.assign(static_cast<size_t>(shape.planeSize()), 0.0f);
    globals_.assign(static_cast<size_t>(shape.globals), 0.0f);
    logits_.assign(static_cast<size_t>(layout_->size()), 0.0f);
    scenario_ = &sc;
  }

  std::unique_ptr<Network> network_;
  const env::Scenario* scenario_ = nullptr;
  std::optional<ObservationEncoder> encoder_;
  std::optional<PolicyLayout> layout_;
  std::vector<float> planes_, globals_, logits_;
};

}  // namespace

NetworkAgentParams parseNetworkAgentParams(const std::map<std::string, std::string>& params) {
  NetworkAgentParams p;
  p.search.simulations = 64;
  for (const auto& [key, value] : params) {
    if (readSearchParam("az", key, value, p.search)) continue;
    if (key == "model") {
      p.model = value;
    } else {
      throw ConfigError("az: unknown parameter \"" + key + "\" (model, sims, ms, cpuct, threads, nodes, reuse)");
    }
  }
  if (p.model.empty()) throw ConfigError("az: give the network file, az:model=FILE");
  return p;
}

std::unique_ptr<mcts::Evaluator> makeNetworkEvaluator(std::unique_ptr<Network> network) {
  return std::make_unique<NetworkEvaluator>(std::move(network));
}

std::unique_ptr<Agent> makeNetworkAgent(const NetworkAgentParams& params, const NetworkLoader& load, uint64_t seed) {
  return std::make_unique<SearchAgent>(
      params.search, [load](uint64_t) { return makeNetworkEvaluator(load()); }, seed,
      "az:model=" + params.model + "," + searchParamsText(params.search));
}

}  // namespace morne::agents
