#include "nn/learner.h"

namespace morne::nn {

namespace {

constexpr LossFigure kFigures[] = {
    {"policy_loss", &LossReport::policy_loss},
    {"policy_baseline", &LossReport::policy_baseline},
    {"policy_top1", &LossReport::policy_top1},
    {"value_loss", &LossReport::value_loss},
    {"value_baseline", &LossReport::value_baseline},
    {"value_sign", &LossReport::value_sign},
    {"value_side_baseline", &LossReport::value_side_baseline, true},
    {"value_variance", &LossReport::value_variance, true},
    {"value_target_variance", &LossReport::value_target_variance, true},
    {"margin_loss", &LossReport::margin_loss},
    {"margin_baseline", &LossReport::margin_baseline},
    {"control_loss", &LossReport::control_loss},
    {"control_baseline", &LossReport::control_baseline},
    {"short_value_loss", &LossReport::short_value_loss},
    {"short_value_baseline", &LossReport::short_value_baseline},
};

}  // namespace

std::span<const LossFigure> lossFigures() { return kFigures; }

bool valueLearnsOnlyTheSide(const LossReport& r) {
  return r.value_side_baseline > 0 && r.value_loss >= 0.9 * r.value_side_baseline;
}

bool valuePredictsAConstant(const LossReport& r) {
  return r.value_target_variance > 0 && r.value_variance < 0.1 * r.value_target_variance;
}

double totalLoss(const LossReport& r, const LearnerConfig& c) {
  return r.policy_loss + c.value_weight * r.value_loss + c.margin_weight * r.margin_loss +
         c.control_weight * r.control_loss + c.short_value_weight * r.short_value_loss;
}

}  // namespace morne::nn
