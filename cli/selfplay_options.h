#pragma once
// How self-play games are played (lock-step batches, exploration, playout caps, resignation,
// adjudication): the options that `morne selfplay` and `morne loop` share, one row each
// (cli/option_table.h).

#include <span>

#include "cli/option_table.h"
#include "training/selfplay_config.h"

namespace morne::cli {

std::span<const OptionRow<training::SelfPlayConfig>> selfplayPlayRows();

}  // namespace morne::cli
