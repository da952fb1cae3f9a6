#include "training/train_options.h"

#include "nn/network.h"

namespace morne::training {

namespace {

const env::OptionRow<TrainSettings> kTrainRows[] = {
    {"batch", &TrainSettings::batch, env::atLeast(1), "rows per optimizer step"},
    {"steps", &TrainSettings::steps, env::atLeast(0),
     "optimizer steps in all (0: as many as --max-reuse allows)"},
    {"max-reuse", &TrainSettings::max_reuse, env::atLeast(0),
     "training rows seen per row of the window, at most (KataGo: about 4; 0: no cap)"},
    {"metrics-every", &TrainSettings::metrics_every, env::atLeast(1),
     "steps between rows of metrics.csv (validation measured then)"},
    {"checkpoint-every", &TrainSettings::checkpoint_every, env::atLeast(1),
     "steps between checkpoints (and exports of net.pt)"},
    {"seed", &TrainSettings::seed, env::anyValue(), "seed of the data order"},
    {"optimizer", &TrainSettings::optimizer, env::anyValue(), "sgd (Nesterov momentum) or adamw"},
    {"lr", &TrainSettings::learning_rate, {0, 10, true, false}, "learning rate after warm-up"},
    {"momentum", &TrainSettings::momentum, {0, 1, false, true}, "SGD momentum"},
    {"weight-decay", &TrainSettings::weight_decay, {0, 1}, "L2 (SGD) or decoupled (AdamW)"},
    {"warmup", &TrainSettings::warmup_steps, env::atLeast(0),
     "steps over which the learning rate rises from 0"},
    {"decay-steps", &TrainSettings::decay_steps, env::atLeast(0),
     "then the rate is multiplied by --decay every this many steps (0: never)"},
    {"decay", &TrainSettings::decay, {0, 1, true, false}, "factor of each decay"},
    {"max-grad-norm", &TrainSettings::max_grad_norm, env::atLeast(0),
     "gradients clipped to this global norm (0: no clipping)"},
    {"value-weight", &TrainSettings::value_weight, env::atLeast(0), "weight of the value loss"},
    {"q-ratio",
     &TrainSettings::q_ratio,
     {0, 1},
     "value target: this share of the search's root value, the rest the game's result"},
    {"level-ratio",
     &TrainSettings::level_ratio,
     {0, 1},
     "value target: this share of the victory level (the margin over 4 VP, clamped to +-1), "
     "the rest the game's result"},
    {"shares", &TrainSettings::shares, env::anyValue(),
     "data of several scenarios (an any-map network): each scenario's weight in the batches, "
     "NAME=WEIGHT,... (e.g. duel=1,pyramids=3)"},
    {"margin-weight", &TrainSettings::margin_weight, env::atLeast(0),
     "weight of the victory-point margin head's loss (0: not trained)"},
    {"margin-scale",
     &TrainSettings::margin_scale,
     {0, 1e6, true, false},
     "victory points of a margin target of 1"},
    {"control-weight", &TrainSettings::control_weight, env::atLeast(0),
     "weight of the final-control head's loss (0: not trained)"},
    {"short-value-weight", &TrainSettings::short_value_weight, env::atLeast(0),
     "weight of the short-term value heads' loss (0: not trained)"},
    {"window-c",
     &TrainSettings::window_c,
     {0, 1e15, true, false},
     "replay window: rows before it starts to lag behind the data"},
    {"window-a", &TrainSettings::window_a, {0, 1, true, false}, "replay window: growth exponent"},
    {"window-b", &TrainSettings::window_b, env::atLeast(0), "replay window: growth scale"},
    {"validation",
     &TrainSettings::validation_permille,
     {0, 1000},
     "share of games never trained on (validation), per mille"},
    {"validation-rows", &TrainSettings::validation_rows, env::atLeast(0),
     "most recent validation rows measured at each metrics row, at most"},
    {"calibration-rows", &TrainSettings::calibration_rows, env::atLeast(0),
     "most recent training rows whose batch-norm statistics the measured and exported network "
     "uses (0: the running averages of training, which lag behind the weights)"},
    {"shuffle-rows", &TrainSettings::shuffle_rows, env::atLeast(1),
     "rows read and shuffled together (memory: about 40 KB a row on duel, 130 on crossing)"},
};

const env::OptionRow<NetworkSource> kNetworkRows[] = {
    {"net", &NetworkSource::net, env::anyValue(),
     "network to train on (default: a fresh one for the data's scenario)"},
    {"blocks", &NetworkSource::blocks, {0, nn::kMaxBlocks}, "fresh network: residual blocks"},
    {"channels",
     &NetworkSource::channels,
     {1, nn::kMaxChannels},
     "fresh network: channels of the trunk"},
    {"value-hidden",
     &NetworkSource::value_hidden,
     {1, nn::kMaxValueHidden},
     "fresh network: hidden units of the value head"},
    {"net-seed", &NetworkSource::net_seed, env::anyValue(), "fresh network: seed of its weights"},
    {"any-map", &NetworkSource::any_map, env::anyValue(),
     "fresh network: one for every map size (nn init --any-scenario), not the scenario's"},
};

}  // namespace

std::span<const env::OptionRow<TrainSettings>> trainOptionRows() { return kTrainRows; }

std::span<const env::OptionRow<NetworkSource>> networkOptionRows() { return kNetworkRows; }

}  // namespace morne::training
