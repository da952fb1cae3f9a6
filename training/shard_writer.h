#pragma once
// Writes self-play games into HDF5 shards (docs/training-data.md). A shard takes whole games
// until it holds at least `rows_per_shard` positions. Each finished game is first appended to
// the shard's journal (training/game_journal.h), then to the shard built in memory
// (training/shard_file.h); a complete shard is written durably as NAME.h5 and its journal
// removed. So a reader never sees a half-written shard, a killed process loses no finished
// game (recoverShards() turns its journal into the shard), and a full disk is an IoError that
// leaves every complete file intact. Not thread-safe: self-play gives it one writer thread.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "training/record.h"
#include "training/shard_info.h"

namespace morne::training {

class GameJournal;
class ShardFile;

class ShardWriter {
 public:
  // Shards go to DIR/PREFIX-NNNN.h5, numbered after any shard or journal already there (none
  // is ever overwritten). Throws IoError when DIR cannot be created.
  ShardWriter(std::string dir, std::string prefix, ShardInfo info, int rows_per_shard);
  ~ShardWriter();  // completes the open shard, as close() does; reports a failure on stderr

  // Appends a game's rows (a new shard is opened when none is); completes the shard once it
  // holds rows_per_shard rows or more. Throws IoError; the game is then in no file.
  void write(const GameData& game);

  // Completes the open shard, if any. Throws IoError; its games stay in its journal.
  void close();

  // The completed shards, in order.
  const std::vector<std::string>& shards() const { return shards_; }
  int64_t rowsWritten() const { return rows_written_; }

 private:
  void open();

  std::string dir_;
  std::string prefix_;
  ShardInfo info_;
  int rows_per_shard_;
  int next_index_ = 0;
  std::string path_;  // of the open shard
  std::unique_ptr<ShardFile> shard_;
  std::unique_ptr<GameJournal> journal_;
  std::vector<std::string> shards_;
  int64_t rows_written_ = 0;
};

// A journal turned back into its shard.
struct RecoveredShard {
  std::string journal;
  std::string shard;  // empty when the journal held no intact game
  int64_t games = 0;
  int64_t rows = 0;
  uint64_t dropped_bytes = 0;  // bytes not read: a last record cut short, or damage
  std::string quarantined;     // where a journal that could not be read whole was kept aside
  std::string problem;         // what could not be read (empty when nothing was damaged)
};

// Turns every journal left in `dir` by a killed run into its shard (or removes it when the
// shard was completed before the kill), removing a temporary file of that shard, and reports
// what it did. A journal that cannot be read whole (a damaged header or record, a record cut
// short or zeros left by a power cut) is never deleted: its intact games go into the shard and the
// journal is renamed NAME.h5.journal.damaged, kept aside and reported, and recovery goes on with
// the others. Journals that a live process holds (a run writing the same folder) are left alone.
// Throws IoError when the folder cannot be read or written.
std::vector<RecoveredShard> recoverShards(const std::string& dir);

// One line saying what a recovery did and what it could not read, for logs.
std::string recoveryText(const RecoveredShard& r);

}  // namespace morne::training
