#include "training/shard_writer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "env/error.h"
#include "env/io/durable_file.h"
#include "training/game_journal.h"
#include "training/shard_file.h"

namespace morne::training {

namespace fs = std::filesystem;

ShardWriter::ShardWriter(std::string dir, std::string prefix, ShardInfo info, int rows_per_shard)
    : dir_(std::move(dir)),
      prefix_(std::move(prefix)),
      info_(std::move(info)),
      rows_per_shard_(rows_per_shard) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw IoError("cannot create folder " + dir_ + ": " + ec.message());
}

ShardWriter::~ShardWriter() {
  try {
    close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "morne: could not complete shard: %s\n", e.what());
  }
}

void ShardWriter::open() {
  for (;;) {
    char name[64];
    std::snprintf(name, sizeof name, "-%04d.h5", next_index_++);
    path_ = (fs::path(dir_) / (prefix_ + name)).string();
    std::error_code ec;
    if (!fs::exists(path_, ec) && !fs::exists(path_ + kJournalSuffix, ec) &&
        !fs::exists(path_ + kJournalSuffix + kNewJournalSuffix, ec) &&
        !fs::exists(path_ + kJournalSuffix + kDamagedSuffix, ec))
      break;
  }
  shard_ = std::make_unique<ShardFile>(info_);
  journal_ = std::make_unique<GameJournal>(path_ + kJournalSuffix, info_);
}

void ShardWriter::write(const GameData& g) {
  if (!shard_) open();
  journal_->append(g);
  shard_->append(g);
  rows_written_ += g.rows;
  if (shard_->rows() >= rows_per_shard_) close();
}

void ShardWriter::close() {
  if (!shard_) return;
  std::unique_ptr<ShardFile> shard = std::move(shard_);
  std::unique_ptr<GameJournal> journal = std::move(journal_);
  try {
    shard->save(path_);
  } catch (const IoError& e) {
    throw IoError(std::string(e.what()) + " (its finished games are kept in " + journal->path() +
                  "; the next self-play run in this folder recovers them)");
  }
  shards_.push_back(path_);
  journal->remove();
}

namespace {

// Keeps `journal` aside under a name recovery does not take again; returns that name.
std::string quarantine(const std::string& journal) {
  std::string aside = journal + kDamagedSuffix;
  std::error_code ec;
  for (int k = 2; fs::exists(aside, ec); ++k) aside = journal + kDamagedSuffix + std::to_string(k);
  env::renameDurably(journal, aside);
  return aside;
}

}  // namespace

std::vector<RecoveredShard> recoverShards(const std::string& dir) {
  std::vector<std::string> journals;
  const std::string journal_end = std::string(".h5") + kJournalSuffix;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().string();
    if (name.ends_with(journal_end) || name.ends_with(journal_end + kNewJournalSuffix))
      journals.push_back(name);
  }
  if (ec) throw IoError("cannot list folder " + dir + ": " + ec.message());
  std::sort(journals.begin(), journals.end());
  std::vector<RecoveredShard> out;
  for (const std::string& journal : journals) {
    // Held while recovering: a live writer holds its journals, and of two processes recovering
    // the same folder, one takes each journal.
    const std::unique_ptr<env::FileLock> lock = env::FileLock::tryLock(journal);
    if (!lock || !lock->stillNamed()) continue;  // written now, or recovered just now
    if (journal.ends_with(kNewJournalSuffix)) {  // killed before its header was written: no game
      env::removeDurably(journal);
      continue;
    }
    RecoveredShard r;
    r.journal = journal;
    const std::string shard = journal.substr(0, journal.size() - std::strlen(kJournalSuffix));
    env::removeDurably(shard + ".tmp");  // the kill may have come while the shard was written
    if (fs::exists(shard, ec)) {         // the shard was complete before the kill
      env::removeDurably(journal);
      out.push_back(r);
      continue;
    }
    RecoveredJournal j;
    try {
      j = readJournal(journal);
      // A journal gets its own name only once its header is whole: without one it is damaged.
      if (!j.has_info) r.problem = "its header is not whole";
    } catch (const ConfigError& e) {
      r.problem = e.what();
    }
    r.dropped_bytes = j.dropped_bytes;
    if (r.problem.empty() && j.dropped_bytes > 0) {
      r.problem = (j.cut_short ? "its last record, at byte " : "a damaged record at byte ") +
                  std::to_string(j.dropped_at) + (j.cut_short ? ", is cut short: " : ": ") +
                  std::to_string(j.dropped_bytes) + " bytes from there could not be read";
    }
    if (!j.games.empty()) {
      ShardFile file(j.info);
      for (const GameData& g : j.games) {
        file.append(g);
        ++r.games;
        r.rows += g.rows;
      }
      file.save(shard);
      r.shard = shard;
    }
    if (r.problem.empty()) {
      env::removeDurably(journal);
    } else {
      r.quarantined = quarantine(journal);
    }
    out.push_back(r);
  }
  return out;
}

std::string recoveryText(const RecoveredShard& r) {
  std::string text = "recovered " + std::to_string(r.games) + " finished game(s), " +
                     std::to_string(r.rows) + " positions, from the journal " + r.journal;
  if (!r.shard.empty()) text += " into " + r.shard;
  if (!r.quarantined.empty()) {
    text +=
        "; the journal could not be read whole (" + r.problem + ") and is kept as " + r.quarantined;
  }
  return text;
}

}  // namespace morne::training
