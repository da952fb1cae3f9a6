#pragma once
// The run folder of a learning run: the contract between its roles, which may be processes
// on different machines sharing the folder (docs/scale-out.md). Every file has one writer, and
// every file another role reads is written whole under a temporary name, then renamed:
//
//   loop.json                   the run's settings                      `morne loop` (init)
//   latest.json                 the data set being played and the best  the gate
//                               network, with its size and CRC-32
//   nets/gen-NNN.pt             promoted networks, never changed        the gate
//   nets/gen-000.pt             a warm start's network (--init)         `morne loop` (init)
//   nets/candidate-gen-NNN.pt   the learner's network of generation N   the learner
//   nets/average-gen-NNN.pt     the moving average gated (an option)     the gate
//   selfplay/gen-NNN/           data set N: shards WORKER-K-SSSS.h5     self-play workers
//   workers/WORKER.lock, .json  a worker's lock (held while it lives)   that worker
//                               and its totals
//   train/                      checkpoint, metrics, learner.json (its  the learner
//                               state), gen-NNN.json (each generation)
//   gates/                      state.json, gen-NNN.json (each gate)    the gate
//   ladder/gen-NNN.json         each ladder                             the gate
//   summary.json, elo.svg       the run's figures                       the gate
//   log.txt                     every role's lines (appended)           all

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "env/io/durable_file.h"
#include "env/io/field_table.h"
#include "training/training_data.h"

namespace morne::loop {

// "gen-007".
std::string generationName(int generation);

// Where a warm start's network lives in the run folder: the best network before any gate.
inline constexpr const char* kInitialNetwork = "nets/gen-000.pt";

// What latest.json says: the data set the workers play (the last gated generation; 0 before
// the first gate) and the network that plays it (none: the bootstrap agent).
struct LatestNetwork {
  int data_set = 0;
  std::string network;  // relative to the run folder; empty before the first promotion
  int network_generation = -1;
  uint64_t bytes = 0;
  uint32_t crc32 = 0;

  bool operator==(const LatestNetwork&) const = default;
};

// latest.json's text for `latest` (what writeLatest() writes), and back: parseLatest() throws
// ConfigError naming `where` when `text` is not such a pointer, or names a file outside the
// run folder.
std::string latestText(const LatestNetwork& latest);
LatestNetwork parseLatest(const std::string& text, const std::string& where);

// The paths of a run folder, and the reading and writing of its shared files.
class RunFolder {
 public:
  explicit RunFolder(std::string dir)
      : dir_(std::move(dir)), known_(std::make_shared<training::ShardSummaries>()) {}

  const std::string& dir() const { return dir_; }
  // The folder's own name (its last path component), which names the run in provenance.
  std::string name() const;
  std::string path(const std::string& relative) const { return dir_ + "/" + relative; }
  std::string dataSet(int g) const { return path("selfplay/" + generationName(g)); }

  // latest.json, or the state before any gate when there is none. Throws ConfigError when
  // it is damaged.
  LatestNetwork readLatest() const;

  // Publishes `latest` (its network already complete in the folder): a temporary file,
  // synced, then renamed over latest.json.
  void writeLatest(const LatestNetwork& latest) const;

  // A warm start: copies the network file `source` (byte for byte) to kInitialNetwork and
  // publishes it for data set 0, unless the folder has it already (a run keeps its copy,
  // wherever `source` has gone since). Throws IoError naming `source` when it cannot be read.
  void placeInitialNetwork(const std::string& source) const;

  // Size and CRC-32 of a network file, for latest.json.
  static void measureNetwork(const std::string& file, LatestNetwork& latest);

  // What keeps the network `latest` names from being the one the gate wrote (missing, or
  // another size or CRC-32), or "" when it is: a filesystem that shows the pointer before the
  // file's bytes gives a problem until they arrive.
  std::string networkProblem(const LatestNetwork& latest) const;

  // Games in the complete shards of data set g, after turning the journals of dead writers
  // into shards unless `recover` is false (a reader that must not change the folder, such as
  // `loop status`). A complete shard never changes, so each is read once per RunFolder.
  int gamesIn(int g, bool recover = true) const;

  // Appends a line to log.txt.
  void log(const std::string& line) const;

 private:
  std::string dir_;
  std::shared_ptr<training::ShardSummaries> known_;  // shards counted so far
};

// Reads a JSON file of the folder (ConfigError naming it when damaged); `fallback` when absent.
nlohmann::json readJsonFile(const std::string& path, const nlohmann::json& fallback);

// Reads the record file at `path` (latest.json, a role's state) with `read(j)`: false when the
// file does not exist yet. ConfigError naming the file when its "format" is not `format`
// (`what` says what it should be: "the state of a gate") or `read` meets a missing field or a
// field of the wrong type.
bool readRecordFile(const std::string& path, const std::string& format, const std::string& what,
                    const std::function<void(const nlohmann::json&)>& read);

// Writes the fields of `record` that `rows` declare, with its "format", to `path` (durably).
template <class Record>
void writeRecord(const std::string& path, const std::string& format,
                 std::span<const env::OptionRow<Record>> rows, const Record& record) {
  nlohmann::json j = env::optionsJson(rows, record);
  j["format"] = format;
  env::writeFileDurably(path, j.dump(1) + "\n");
}

// Reads a record writeRecord() wrote into `record`: false when the file does not exist yet.
// ConfigError naming the file (and the key) when it is of another format, damaged, lacks a
// field, or holds one of the wrong type or out of its range.
template <class Record>
bool readRecord(const std::string& path, const std::string& format, const std::string& what,
                std::span<const env::OptionRow<Record>> rows, Record& record) {
  return readRecordFile(path, format, what, [&](const nlohmann::json& j) {
    env::readOptionsJson(path, j, rows, record);
  });
}

// The lock that makes a role unique in a run (the learner, the gate, one worker name): held
// while the process lives. Throws ConfigError naming `who` when another process holds it.
std::unique_ptr<env::FileLock> lockRole(const std::string& lock_path, const std::string& who);

// CPU seconds this process has used.
double processCpuSeconds();

}  // namespace morne::loop
