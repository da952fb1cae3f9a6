#pragma once
// The options shared by `morne train` and `morne loop`: the training settings
// (training/train_run.h) and where the network comes from (training/network_source.h), one row
// each (env/io/field_table.h).

#include <span>

#include "env/io/field_table.h"
#include "training/network_source.h"
#include "training/train_run.h"

namespace morne::training {

std::span<const env::OptionRow<TrainSettings>> trainOptionRows();
std::span<const env::OptionRow<NetworkSource>> networkOptionRows();

}  // namespace morne::training
