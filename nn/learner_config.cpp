#include "nn/learner.h"

namespace morne::nn {

namespace {

const env::OptionRow<LearnerConfig> kLearnerRows[] = {
    {"optimizer", &LearnerConfig::optimizer, env::oneOf("sgd|adamw"),
     "sgd (Nesterov momentum) or adamw"},
    {"lr", &LearnerConfig::learning_rate, {0, 10, true, false}, "learning rate after warm-up"},
    {"momentum", &LearnerConfig::momentum, {0, 1, false, true}, "SGD momentum"},
    {"weight-decay", &LearnerConfig::weight_decay, {0, 1}, "L2 (SGD) or decoupled (AdamW)"},
    {"warmup", &LearnerConfig::warmup_steps, env::atLeast(0),
     "steps over which the learning rate rises from 0"},
    {"decay-steps", &LearnerConfig::decay_steps, env::atLeast(0),
     "then the rate is multiplied by --decay every this many steps (0: never)"},
    {"decay", &LearnerConfig::decay, {0, 1, true, false}, "factor of each decay"},
    {"max-grad-norm", &LearnerConfig::max_grad_norm, env::atLeast(0),
     "gradients clipped to this global norm (0: no clipping)"},
    {"value-weight", &LearnerConfig::value_weight, env::atLeast(0), "weight of the value loss"},
    {"margin-weight", &LearnerConfig::margin_weight, env::atLeast(0),
     "weight of the victory-point margin head's loss (0: not trained)", env::kRecorded,
     env::before("0")},
    {"margin-scale",
     &LearnerConfig::margin_scale,
     {0, 1e6, true, false},
     "victory points of a margin target of 1",
     env::kRecorded,
     env::before("5")},
    {"control-weight", &LearnerConfig::control_weight, env::atLeast(0),
     "weight of the final-control head's loss (0: not trained)", env::kRecorded, env::before("0")},
    {"short-value-weight", &LearnerConfig::short_value_weight, env::atLeast(0),
     "weight of the short-term value heads' loss (0: not trained)", env::kRecorded,
     env::before("0")},
};

}  // namespace

std::span<const env::OptionRow<LearnerConfig>> learnerOptionRows() { return kLearnerRows; }

}  // namespace morne::nn
