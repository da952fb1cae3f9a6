#pragma once
// What identifies a self-play shard and what every shard of a run says about itself (the file
// attributes of docs/training-data.md).

#include <string>

#include "training/record.h"

namespace morne::training {

inline constexpr const char* kShardFormat = "morne-selfplay";
inline constexpr int kShardFormatVersion = 1;

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
