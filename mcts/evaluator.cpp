#include "mcts/evaluator.h"

namespace morne::mcts {

namespace {

class OneByOne : public Evaluator {
 public:
  explicit OneByOne(std::unique_ptr<BatchEvaluator> batch) : batch_(std::move(batch)) {}
  double evaluate(const env::GameState& s, std::span<const env::Action> legal,
                  std::span<float> priors) override {
    const LeafRequest leaf{&s, legal, priors};
    const LeafRequest* leaves[] = {&leaf};
    double value = 0;
    batch_->evaluate(leaves, std::span(&value, 1));
    return value;
  }
  void evaluateBatch(std::span<const LeafRequest* const> leaves,
                     std::span<double> values) override {
    batch_->evaluate(leaves, values);
  }

 private:
  std::unique_ptr<BatchEvaluator> batch_;
};

}  // namespace

void Evaluator::evaluateBatch(std::span<const LeafRequest* const> leaves,
                              std::span<double> values) {
  for (size_t i = 0; i < leaves.size(); ++i)
    values[i] = evaluate(*leaves[i]->state, leaves[i]->legal, leaves[i]->priors);
}

std::unique_ptr<Evaluator> evaluateOneByOne(std::unique_ptr<BatchEvaluator> batch) {
  return std::make_unique<OneByOne>(std::move(batch));
}

}  // namespace morne::mcts
