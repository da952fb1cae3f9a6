#pragma once
// The journal of the shard being written: every finished game is appended to
// "NAME.h5.journal" before it goes into the shard, so that a killed process loses no finished
// game. The shard itself is built in memory and written whole when complete
// (training/shard_writer.h); its journal is then removed. A journal left behind by a kill is
// turned into its shard by recoverJournal() (morne selfplay does it at start-up for its
// folder).
//
// Layout: records of {magic "MJRN", kind, stored bytes, raw bytes, CRC-32 of the stored bytes}
// (five little-endian uint32) then the stored bytes. The first record holds the ShardInfo as
// JSON; each later one a GameData, zlib-compressed. A record cut short (a power cut) or
// damaged (wrong CRC, magic, kind or content) ends the journal: everything before it is
// recovered, and recovery keeps the journal aside as damaged.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "training/record.h"
#include "training/shard_info.h"

namespace morne::training {

inline constexpr const char* kJournalSuffix = ".journal";
inline constexpr const char* kNewJournalSuffix = ".new";   // after the journal's own name, until
                                                           // its header is written
inline constexpr const char* kDamagedSuffix = ".damaged";  // after the name of a journal that
                                                           // recovery could not read whole

class GameJournal {
 public:
  // Starts the journal `path` (an existing one is replaced) with the shard's info.
  GameJournal(const std::string& path, const ShardInfo& info);
  ~GameJournal();

  // Appends one finished game; it is on disk (in the kernel's cache) when this returns.
  // Throws IoError (a full disk) without leaving a torn record.
  void append(const GameData& game);

  // Removes the journal once its shard is safely written.
  void remove();

  const std::string& path() const;

 private:
  struct File;
  std::unique_ptr<File> file_;
  RowShape shape_;
};

// What a journal held: the shard's info, every intact game, and what was cut off.
struct RecoveredJournal {
  bool has_info = false;  // the first record was read (a journal cut as it was made has none)
  ShardInfo info;
  std::vector<GameData> games;
  uint64_t dropped_bytes = 0;  // a record cut short or damaged, and what follows
  uint64_t dropped_at = 0;     // where the unread bytes start
  bool cut_short = false;      // they are a last record that runs past the end of the file
};

// Reads a journal left behind by a killed run. A journal cut before its header was complete
// holds no game (`info` is then empty). Throws IoError (unreadable) or ConfigError (not a
// morne journal).
RecoveredJournal readJournal(const std::string& path);

// The same for the bytes of a journal; `path` names it in messages.
RecoveredJournal parseJournal(std::string_view data, const std::string& path);

}  // namespace morne::training
