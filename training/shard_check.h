#pragma once
// Checks a shard read whole (training/shard_reader.h) against every promise of its format
// (docs/training-data.md): the encoder version and shapes, finite inputs within [-1, 1],
// policy targets that are distributions over the legal actions, legal masks of 0 and 1, value
// targets that match each game's result, search values within [-1, 1], rows that agree with
// their games, and fields within their ranges. Used by `morne data inspect --check` and by whatever
// learns from shards.

#include <cstdint>
#include <string>
#include <vector>

#include "training/shard_reader.h"

namespace morne::training {

struct ShardCheck {
  std::vector<std::string> problems;  // the first kMaxListed, each naming its game and row
  int64_t problem_count = 0;
  // Figures over every row, for the report.
  double mean_legal = 0;
  double mean_top_policy = 0;
  double mean_value = 0;

  static constexpr size_t kMaxListed = 20;
};

// Precondition: `c` was read with its positions.
ShardCheck checkShard(const ShardContents& c);

}  // namespace morne::training
