#pragma once
// Reads the shards self-play writes (training/shard_writer.h): their attributes and, for
// checks and tools, their datasets. Rejects files of another format or version.

#include <string>
#include <vector>

#include "nn/learner.h"
#include "training/record.h"
#include "training/shard_info.h"

namespace morne::training {

// A shard's attributes (ShardInfo, its shape read from the datasets), its rows and its games.
struct ShardContents : ShardInfo {
  std::string format;
  int format_version = 0;
  int64_t rows = 0;
  std::vector<GameData> games;         // rows filled in only when read with positions
  std::vector<int32_t> declared_rows;  // games/positions: the rows each game says it has
};

// Reads a shard. With `positions`, every row goes into its game's GameData (in the games'
// order); without, only the attributes, the shapes and the per-game records. Every dataset's
// type and shape is checked against the format (and the sizes it declares against the file's
// size) before anything is read or allocated. Throws IoError (unreadable, with HDF5's reason)
// or ConfigError (not a morne shard, another format version, or damaged: the message names the
// dataset and what is wrong).
ShardContents readShard(const std::string& path, bool positions);

// Appends rows [first, first + count) of a shard whose rows have `shape` (as readShard()
// found) to `into`: planes, globals, policy target, legal mask and result. The learner's
// reader uses it to read a shard a few rows at a time. Throws IoError naming the file when it
// cannot be read, ConfigError when its datasets are not of `shape` or hold fewer rows.
void readShardRows(const std::string& path, int64_t first, int64_t count, const RowShape& shape,
                   nn::TrainingBatch& into);

}  // namespace morne::training
