#pragma once
// What the learner reads: the shards of some folders as one sequence of rows (ShardIndex), the
// replay window over its most recent rows, the validation games set apart, and a stream of
// shuffled training rows read by a thread of its own ahead of the learner (TrainingStream).
// docs/training.md describes it.
//
// The sequence takes the folders in the order given and, within a folder, the games of each
// writer (a shard name's prefix, "loop-0" of "loop-0-0003.h5") in the order of their ids: not
// in the order games ended, which depends on the threads. So the same games give the same
// sequence, and the same training, whatever the number of self-play jobs.
//
// The stream is a sequence of fills: fill k draws blocks of consecutive rows at random from
// the window (each row as likely as any other to be in a fill), reads them, and shuffles them, all
// from the seed deriveSeed(seed, k). So a position in the stream is two numbers (the fill and the
// rows of it already taken), saved in a checkpoint, and a resumed stream gives exactly the rows an
// uninterrupted one would have.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nn/learner.h"
#include "training/record.h"
#include "training/replay_window.h"

namespace morne::training {

// One shard of the index.
struct IndexedShard {
  std::string path;
  int64_t rows = 0;
};

// One game of the sequence: where its rows are, and where they sit in the sequence.
struct IndexedGame {
  int32_t shard = 0;         // in ShardIndex::shards
  int64_t row_in_shard = 0;  // its first row in that shard (a game's rows are consecutive)
  int64_t rows = 0;
  int64_t first_row = 0;    // its first row in the sequence
  bool validation = false;  // a validation game, never trained on
};

// The shards of a run, oldest first, and the sequence of their games, with the facts every
// reader needs.
struct ShardIndex {
  std::vector<IndexedShard> shards;
  std::vector<IndexedGame> sequence;
  RowShape shape;
  int encoder_version = 0;
  std::string scenario;
  int64_t rows = 0;             // all rows, validation ones included
  int64_t validation_rows = 0;  // rows of validation games
  int64_t games = 0;
};

// Lists the shards (*.h5) of `dirs`: the folders in the order given, each folder's shards by
// name, at most `max_shards` of them (0: all; a resumed run reads the shards it knew). Reads
// their attributes and game tables, reads every row once as a check, and orders the games as the
// sequence above. A game belongs to the validation set by isValidationGame(seed,
// validation_permille). Throws ConfigError when a folder holds no shard, or when shards disagree on
// the scenario, the encoder version or the row shape (the message names both), IoError when one is
// unreadable.
ShardIndex indexShards(const std::vector<std::string>& dirs, int validation_permille,
                       size_t max_shards = 0);

// The shards (*.h5) of `dirs` in the order indexShards() reads them. Throws ConfigError as it.
std::vector<std::string> shardFiles(const std::vector<std::string>& dirs);

// What indexing reads of a shard: its kind of data, and each game's id, seed and rows (in the
// shard's order).
struct ShardSummary {
  struct Game {
    uint64_t id = 0;
    uint64_t seed = 0;
    int64_t rows = 0;  // as the game declares them
  };
  std::string scenario;
  int encoder_version = 0;
  RowShape shape;
  int64_t rows = 0;
  std::vector<Game> games;
};

// The summaries of the shards read so far, by path: a complete shard never changes, so a
// long-lived reader (the learner of a run, which indexes every shard of every data set each
// generation) reads each one once. Thread-safe.
class ShardSummaries {
 public:
  // Each new shard is read in a child process (training/shard_isolation.h) given
  // `read_seconds` (0: isolatedReadSeconds() of its size) before it counts as damaged.
  explicit ShardSummaries(double read_seconds = 0) : read_seconds_(read_seconds) {}

  // The summary of `path`, read now (in a child process) when it is new, with every row of the
  // shard read once so that damage anywhere is refused on joining. Throws as readShard() and
  // readShardRows(), and ConfigError "PATH: damaged: ..." when reading it crashed or hung.
  ShardSummary of(const std::string& path);

  // Reads the summaries of those of `paths` not read yet, together in one child process (a
  // fork costs tens of milliseconds in a large process), so that of() then finds them, or
  // throws what refused them (once: a later call reads such a file again).
  void prefetch(const std::vector<std::string>& paths);

 private:
  double secondsFor(uint64_t bytes) const;

  double read_seconds_;
  std::mutex mutex_;
  std::map<std::string, ShardSummary> known_;
  std::map<std::string, std::string> refused_;  // by prefetch(): 'C' or 'I', then the message
};

// The index of exactly these shard files, in this order (a resumed run's, whose folders other
// processes may have added shards to since), their summaries from `known` when given. Throws as
// indexShards(); ConfigError when one is gone.
ShardIndex indexShardFiles(const std::vector<std::string>& files, int validation_permille,
                           ShardSummaries* known = nullptr);

struct DataConfig {
  WindowConfig window;
  int validation_permille = 50;  // share of games never trained on, in 1/1000
  int shuffle_rows = 4096;       // rows of one fill, shuffled together
  int block_rows = 64;           // consecutive rows read at once (the shards' chunk)
  int prefetch = 1;              // fills read ahead of the one being consumed (at least 1)
};

// A place in the stream of training rows.
struct DataPosition {
  int64_t fill = 0;
  int64_t offset = 0;  // rows of that fill already taken
};

// The shuffled training rows of an index's window, read on a thread of its own.
class TrainingStream {
 public:
  // Starts reading at `start`. Throws ConfigError when the window holds no training row.
  TrainingStream(ShardIndex index, const DataConfig& config, uint64_t seed, DataPosition start);
  // Stops the reader thread.
  ~TrainingStream();
  TrainingStream(const TrainingStream&) = delete;
  TrainingStream& operator=(const TrainingStream&) = delete;

  // The next `rows` rows (waits for the reader when it is behind). Rethrows the reader's
  // error (a shard that cannot be read).
  nn::TrainingBatch next(int rows);

  // Where the next row will come from.
  DataPosition position() const { return position_; }

  // Rows of the window, training rows among them, and the first row of the window.
  int64_t windowRows() const { return window_rows_; }
  int64_t windowTrainingRows() const { return window_training_rows_; }

  // The reader's speed: rows read per second of its own busy time.
  double readerRowsPerSecond() const;

  // At least `rows` training rows of the window (all of them when it holds fewer), drawn as
  // a fill is, from `seed`: a sample of the whole window, apart from the stream.
  nn::TrainingBatch sample(uint64_t seed, int rows) const;

 private:
  // The rows of a fill as read, and the order in which they are handed out.
  struct Fill {
    nn::TrainingBatch rows;
    std::vector<int> order;
  };
  Fill draw(uint64_t seed, int64_t rows) const;
  void readLoop(int64_t first_fill);

  ShardIndex index_;
  DataConfig config_;
  uint64_t seed_;
  int64_t window_start_ = 0;
  int64_t window_rows_ = 0;
  int64_t window_training_rows_ = 0;
  // The blocks of the window: the first row of each in the sequence, block_rows-aligned.
  std::vector<int64_t> blocks_;

  DataPosition position_;
  Fill current_;  // fill position_.fill

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Fill> ready_;  // fills after the current one
  std::exception_ptr error_;
  bool stopping_ = false;
  int64_t rows_read_ = 0;
  double reading_seconds_ = 0;
  std::thread reader_;
};

// The most recent validation rows of the index's window, at most `max_rows` of them (in the
// order written). Empty when the window holds no validation game.
nn::TrainingBatch validationRows(const ShardIndex& index, const WindowConfig& window,
                                 int64_t max_rows);

// Appends rows first .. first + count - 1 of `from` to `to` (same shapes).
void appendRows(const nn::TrainingBatch& from, int first, int count, nn::TrainingBatch& to);

// Appends row `row` of `from` to `to` (same shapes).
void appendRow(const nn::TrainingBatch& from, int row, nn::TrainingBatch& to);

}  // namespace morne::training
