#pragma once
// The options shared by `morne train` and `morne loop`: the training settings
// (training/train_run.h; the learner's own, TrainSettings::learner, are nn::learnerOptionRows)
// and where the network comes from (training/network_source.h), one row each
// (env/io/field_table.h).

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "env/io/field_table.h"
#include "training/network_source.h"
#include "training/train_run.h"

namespace morne::training {

std::span<const env::OptionRow<TrainSettings>> trainOptionRows();

// The recorded training settings, the learner's among them, as one JSON object (the "settings"
// of train.json, the "train" of loop.json).
nlohmann::json trainSettingsJson(const TrainSettings& settings);
// Reads them back (written by trainSettingsJson; `where` names the record in errors).
void readTrainSettingsJson(const std::string& where, const nlohmann::json& j,
                           TrainSettings& settings);
std::span<const env::OptionRow<NetworkSource>> networkOptionRows();

}  // namespace morne::training
