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
    {"q-ratio",
     &TrainSettings::q_ratio,
     {0, 1},
     "value target: this share of the search's root value, the rest the game's result",
     env::kRecorded,
     env::before("0")},
    {"teacher-ratio",
     &TrainSettings::teacher_ratio,
     {0, 1},
     "value target: this share of the value teacher's root value (selfplay --value-teacher; "
     "rows without one keep theirs), mixed in after --q-ratio",
     env::kRecorded,
     env::before("0")},
    {"level-ratio",
     &TrainSettings::level_ratio,
     {0, 1},
     "value target: this share of the victory level (the margin over 4 VP, clamped to +-1), "
     "the rest the game's result",
     env::kRecorded,
     env::before("0")},
    {"shares", &TrainSettings::shares, env::anyValue(),
     "data of several scenarios (an any-map network): each scenario's weight in the batches, "
     "NAME=WEIGHT,... (e.g. duel=1,pyramids=3)",
     env::kRecorded, env::before("\"\"")},
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
     "fresh network: one for every map size (nn init --any-scenario), not the scenario's",
     env::kRecorded, env::before("false")},
};

}  // namespace

std::span<const env::OptionRow<TrainSettings>> trainOptionRows() { return kTrainRows; }

nlohmann::json trainSettingsJson(const TrainSettings& settings) {
  nlohmann::json j = env::optionsJson<TrainSettings>(kTrainRows, settings);
  j.update(env::optionsJson<nn::LearnerConfig>(nn::learnerOptionRows(), settings.learner));
  return j;
}

void readTrainSettingsJson(const std::string& where, const nlohmann::json& j,
                           TrainSettings& settings) {
  env::readOptionsJson<TrainSettings>(where, j, kTrainRows, settings);
  env::readOptionsJson<nn::LearnerConfig>(where, j, nn::learnerOptionRows(), settings.learner);
}

std::span<const env::OptionRow<NetworkSource>> networkOptionRows() { return kNetworkRows; }

}  // namespace morne::training
