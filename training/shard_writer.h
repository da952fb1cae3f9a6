#pragma once
// Writes self-play games into HDF5 shards (docs/training-data.md). A shard is written under
// "NAME.h5.tmp" and renamed to "NAME.h5" only once complete and closed, so a reader never sees
// a half-written file and an interrupted run leaves only complete shards. A shard takes whole
// games until it holds at least `rows_per_shard` positions. HDF5 is used here and in
// shard_reader.cpp only. Not thread-safe: self-play gives it one writer thread.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "training/record.h"

namespace morne::training {

inline constexpr const char* kShardFormat = "morne-selfplay";
inline constexpr int kShardFormatVersion = 1;

// What every shard of a run says about itself (file attributes).
struct ShardInfo {
  std::string scenario;
  std::string blue_agent;
  std::string orange_agent;
  std::string config;  // the run's settings, as JSON
  std::string engine;  // versionLine(): version and git revision
  int encoder_version = 0;
  RowShape shape;
};

class ShardWriter {
 public:
  // Shards go to DIR/PREFIX-NNNN.h5. Throws IoError when DIR cannot be created.
  ShardWriter(std::string dir, std::string prefix, ShardInfo info, int rows_per_shard);
  ~ShardWriter();  // closes the open shard, as close() does

  // Appends a game's rows (a new shard is opened when none is); completes the shard once it
  // holds rows_per_shard rows or more.
  void write(const GameData& game);

  // Completes the open shard, if any.
  void close();

  // The completed shards, in order.
  const std::vector<std::string>& shards() const { return shards_; }
  int64_t rowsWritten() const { return rows_written_; }

 private:
  struct Open;
  void open();

  std::string dir_;
  std::string prefix_;
  ShardInfo info_;
  int rows_per_shard_;
  int next_index_ = 0;
  std::unique_ptr<Open> open_;
  std::vector<std::string> shards_;
  int64_t rows_written_ = 0;
};

}  // namespace morne::training
