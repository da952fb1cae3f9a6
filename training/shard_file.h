#pragma once
// One shard under construction: an HDF5 file held in memory (HDF5's core driver, without a
// backing store) that takes whole games, then goes to disk in one checked, durable write
// (env/io/durable_file.h). HDF5 itself never writes to disk, so a full disk is one clear IoError
// and never a half-flushed file or a crash in the library's shutdown. The layout is that of
// docs/training-data.md. HDF5 is used here and in shard_reader.cpp only.

#include <cstdint>
#include <memory>
#include <string>

#include "training/record.h"
#include "training/shard_info.h"

namespace morne::training {

class ShardFile {
 public:
  // An empty shard with `info`'s attributes. Throws IoError.
  explicit ShardFile(const ShardInfo& info);
  ~ShardFile();
  ShardFile(const ShardFile&) = delete;
  ShardFile& operator=(const ShardFile&) = delete;

  // Appends a game's rows and its record (a dataset the game leaves empty holds its stand-in's
  // values: shard_schema.h). Throws IoError; InternalError when a dataset does not hold the
  // game's rows.
  void append(const GameData& game);

  // Writes the shard to `path` (through PATH.tmp, fsynced, renamed). The shard cannot be
  // appended to afterwards. Throws IoError naming the path and the reason.
  void save(const std::string& path);

  int64_t rows() const { return rows_; }

 private:
  struct Datasets;
  std::unique_ptr<Datasets> sets_;
  RowShape shape_;
  int64_t rows_ = 0;
};

}  // namespace morne::training
