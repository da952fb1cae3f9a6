#pragma once
// The options shared by `morne train` and `morne loop`: the training settings
// (training/train_run.h) and where the network comes from (training/network_source.h), one row
// each (cli/option_table.h).

#include <span>

#include "cli/option_table.h"
#include "training/network_source.h"
#include "training/train_run.h"

namespace morne::cli {

std::span<const OptionRow<training::TrainSettings>> trainOptionRows();
std::span<const OptionRow<training::NetworkSource>> networkOptionRows();

}  // namespace morne::cli
