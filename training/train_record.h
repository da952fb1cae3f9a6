#pragma once
// RUN/train.json, the record of a training run (`morne train`, format morne-train-run/1): its
// settings with their data folders, where its network came from, and the engine that made it;
// `--resume` goes on with them.

#include <nlohmann/json.hpp>
#include <string>

#include "training/network_source.h"
#include "training/train_run.h"

namespace morne::training {

// Writes DIR/train.json (whole, by rename).
void writeTrainRecord(const std::string& dir, const TrainSettings& settings,
                      const NetworkSource& source);

// Reads DIR/train.json into `settings` (data folders included) and `source`. Throws ConfigError
// naming the file when it is not a training run's record or a setting is missing, of the wrong
// type or out of range; IoError when it cannot be read.
void readTrainRecord(const std::string& dir, TrainSettings& settings, NetworkSource& source);

}  // namespace morne::training
