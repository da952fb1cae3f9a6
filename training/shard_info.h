#pragma once
// What identifies a self-play shard and what every shard of a run says about itself (the file
// attributes of docs/training-data.md).

#include <string>

#include "training/record.h"

namespace morne::training {

inline constexpr const char* kShardFormat = "morne-selfplay";
// Version 2 added positions/search_value, version 3 positions/margin, control and short_value,
// version 4 games/handicap_half, version 5 positions/teacher_value; older shards and journals
// are still read (version 1's search values are its values, what a version lacks is unknown:
// NaN, or a handicap of 0).
inline constexpr int kShardFormatVersion = 5;
inline constexpr int kOldestShardFormatVersion = 1;

struct ShardInfo {
  std::string scenario;
  std::string blue_agent;
  std::string orange_agent;
  std::string config;  // the run's settings, as JSON
  std::string engine;  // versionLine(): version and git revision
  int encoder_version = 0;
  RowShape shape;
};

}  // namespace morne::training
