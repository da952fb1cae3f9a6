#include "nn/network_evaluator.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "env/error.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"

namespace morne::nn {

namespace {

class NetworkEvaluator : public mcts::BatchEvaluator {
 public:
  NetworkEvaluator(std::unique_ptr<Network> network, int fixed_batch)
      : network_(std::move(network)), fixed_batch_(static_cast<size_t>(fixed_batch)) {}

  void evaluate(std::span<const mcts::LeafRequest* const> leaves,
                std::span<double> values) override {
    if (fixed_batch_ > 0 && leaves.size() > fixed_batch_) {
      for (size_t at = 0; at < leaves.size(); at += fixed_batch_) {
        const size_t n = std::min(fixed_batch_, leaves.size() - at);
        evaluate(leaves.subspan(at, n), values.subspan(at, n));
      }
      return;
    }
    if (leaves.empty()) return;
    const size_t batch = std::max(leaves.size(), fixed_batch_);
    prepare(leaves[0]->state->sc(), batch);
    const size_t plane = static_cast<size_t>(encoder_->shape().planeSize());
    const size_t globals = static_cast<size_t>(encoder_->shape().globals);
    const size_t policy = static_cast<size_t>(layout_->size());
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (&leaves[i]->state->sc() != scenario_)
        throw ConfigError("a batch of positions from two scenarios");
      encoder_->encode(*leaves[i]->state, std::span(planes_).subspan(i * plane, plane),
                       std::span(globals_).subspan(i * globals, globals));
    }
    // Padding: whatever the rows past the leaves hold (earlier positions), their outputs are
    // not used and do not change the leaves' own.
    network_->evaluate(static_cast<int>(batch), encoder_->shape(),
                       std::span(planes_).first(batch * plane),
                       std::span(globals_).first(batch * globals),
                       std::span(logits_).first(batch * policy), std::span(values_).first(batch));
    for (size_t i = 0; i < leaves.size(); ++i) {
      const mcts::LeafRequest& leaf = *leaves[i];
      softmaxOverLegal(std::span(logits_).subspan(i * policy, policy), leaf.legal, leaf.priors);
      // The network speaks for the side to move; the search keeps values from blue's view.
      values[i] = leaf.state->side == 0 ? values_[i] : -values_[i];
    }
  }

 private:
  // The priors: the softmax of the policy logits over the legal actions.
  void softmaxOverLegal(std::span<const float> logits, std::span<const env::Action> legal,
                        std::span<float> priors) const {
    if (legal.empty()) return;
    float top = -1e30f;
    for (size_t i = 0; i < legal.size(); ++i) {
      priors[i] = logits[static_cast<size_t>(layout_->index(legal[i]))];
      top = std::max(top, priors[i]);
    }
    float total = 0;
    for (size_t i = 0; i < legal.size(); ++i) total += priors[i] = std::exp(priors[i] - top);
    for (size_t i = 0; i < legal.size(); ++i) priors[i] /= total;
  }

  // Builds the encoders for `sc` the first time, checking the network fits it, and makes room
  // for `batch` positions.
  void prepare(const env::Scenario& sc, size_t batch) {
    if (scenario_ == &sc) {
      if (values_.size() < batch) resize(batch);
      return;
    }
    checkNetworkFits(network_->config(), sc);
    encoder_.emplace(sc);
    layout_.emplace(sc, network_->config().policy_planes);
    scenario_ = &sc;
    values_.clear();
    resize(batch);
  }

  void resize(size_t batch) {
    const ObservationShape shape = encoder_->shape();
    planes_.assign(batch * static_cast<size_t>(shape.planeSize()), 0.0f);
    globals_.assign(batch * static_cast<size_t>(shape.globals), 0.0f);
    logits_.assign(batch * static_cast<size_t>(layout_->size()), 0.0f);
    values_.assign(batch, 0.0f);
  }

  std::unique_ptr<Network> network_;
  size_t fixed_batch_;  // 0: the batch as given
  const env::Scenario* scenario_ = nullptr;
  std::optional<ObservationEncoder> encoder_;
  std::optional<PolicyLayout> layout_;
  std::vector<float> planes_, globals_, logits_, values_;
};

}  // namespace

std::unique_ptr<mcts::BatchEvaluator> makeNetworkEvaluator(std::unique_ptr<Network> network,
                                                           int fixed_batch) {
  return std::make_unique<NetworkEvaluator>(std::move(network), std::max(0, fixed_batch));
}

}  // namespace morne::nn
