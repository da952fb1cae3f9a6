#pragma once
// How self-play games are played (lock-step batches, exploration, playout caps, resignation,
// adjudication): the options that `morne selfplay` and `morne loop` share, one row each
// (env/io/field_table.h).

#include <span>

#include "env/io/field_table.h"
#include "training/selfplay_config.h"

namespace morne::training {

std::span<const env::OptionRow<SelfPlayConfig>> selfplayPlayRows();

}  // namespace morne::training
