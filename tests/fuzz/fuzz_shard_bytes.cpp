// Fuzz target: the shard reader on arbitrary bytes (training/training_data.h
// ShardSummaries::of, the one door of every in-process reader: the learner, `morne train`,
// `loop serve`, morne.read_shards). The seed corpus holds a whole shard, so that mutations
// damage real HDF5 structures: B-trees, heaps, chunk indexes and compressed rows. libhdf5
// crashes or loops on some of them; the reader reads each new file in a child process
// (training/shard_isolation.h), so the outcome here is a summary or morne's error, never a
// crash of this process.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "env/error.h"
#include "tests/fuzz/fuzz_target.h"
#include "training/training_data.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morne;
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("morne-fuzz-shard-bytes-" + std::to_string(::getpid()) + ".h5"))
                                      .string();
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    // A new one each time (the file is read again), with 5 s for a read: libFuzzer's own
    // limit on an input is 20 s.
    training::ShardSummaries summaries(5);
    const training::ShardSummary s = summaries.of(path);
    fuzz::fuzzRequire(s.rows >= 0, "a summary counts its rows");
    int64_t declared = 0;
    for (const training::ShardSummary::Game& g : s.games) declared += g.rows;
    fuzz::fuzzRequire(declared >= 0, "games declare their rows");
  } catch (const Error&) {
  }
  return 0;
}
