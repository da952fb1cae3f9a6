#pragma once
// The run folder over HTTP, for workers on machines that do not share it (docs/scale-out.md):
// what `morne loop serve RUN` answers. Every request carries the run's token (RUN/token) as
// "Authorization: Bearer TOKEN"; without it the answer is 401 and nothing else.
//
//   GET /v1/run                     {"format","run","loop": loop.json, "scenario": its text,
//                                    "max_upload_bytes": the largest upload taken}
//   GET /v1/latest                  latest.json (loop/run_folder.h)
//   GET /v1/nets/FILE               a network of nets/
//   GET /v1/archives/gen-NNN        {"files": [{"name","bytes"}]}: the data set's position archives
//   GET /v1/archives/gen-NNN/FILE   one of them
//   GET /v1/workers/NAME            {"next_chunk": N}: one past NAME's highest chunk in selfplay/
//   PUT /v1/selfplay/gen-NNN/FILE   a finished shard (NAME-K-SSSS.h5) or position archive
//                                   (NAME-K.positions.json), with "X-Morne-Crc32: 8 hex digits"
//   PUT /v1/workers/NAME            the worker's totals, workers/NAME.json
//
// An upload is written under incoming/, checked (its length, its CRC-32, a shard read whole as
// the learner would read it, of the run's scenario), synced, then renamed into its data set:
// the learner never sees part of one. The same file again is answered 200 (stored already);
// other bytes under a name the folder holds, 409; a damaged upload, 422, and it is dropped (the
// worker keeps its copy aside). A shard is read in a child process (training/shard_isolation.h):
// bytes that crash libhdf5 are a refusal, never a crash of the server, and the server itself
// never opens an uploaded shard. Files are served only when they are regular files of their own
// folder (a symbolic link is not followed). A worker's totals are checked field by field
// (loop/worker_totals.h) before they are stored.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "http/http_server.h"
#include "loop/loop_config.h"

namespace morne::loop {

// The run's token (RUN/token): made (256 random bits, readable by its owner alone) when the
// folder has none. Throws IoError when it cannot be read or made.
std::string runToken(const RunFolder& folder);

// Reads a token file (its first line). Throws ConfigError naming `path` when it is empty or
// unreadable.
std::string readTokenFile(const std::string& path);

// What `morne loop serve` has done (for the log and tests).
struct ExchangeCounters {
  uint64_t refused_token = 0;  // requests without the run's token
  uint64_t stored = 0;         // uploads renamed into the run folder
  uint64_t repeated = 0;       // uploads the folder held already
  uint64_t refused = 0;        // uploads refused: damaged, misnamed, in conflict
};

// The answers above, over the run folder of `run`.
class RunExchange : public http::HttpHandler {
 public:
  // `max_upload_bytes`: the server's bound on a body, told to workers (GET /v1/run) so that
  // they keep a larger file aside instead of sending it.
  RunExchange(const RoleContext& run, std::string token,
              uint64_t max_upload_bytes = uint64_t{1} << 30);

  std::string bodyFile(const http::HttpRequest& head, http::HttpReply& refusal) override;
  http::HttpReply answer(const http::HttpRequest& request) override;
  ExchangeCounters counters() const;

 private:
  // The answer to an authorised request.
  http::HttpReply route(const http::HttpRequest& request);
  // Stores the uploaded `request.body_file` as `relative` (its data set's file) once checked.
  http::HttpReply store(const http::HttpRequest& request, const std::string& relative);
  http::HttpReply storeTotals(const http::HttpRequest& request, const std::string& name);
  void count(uint64_t ExchangeCounters::*counter);

  const RoleContext& run_;
  std::string token_;
  uint64_t max_upload_bytes_;
  std::atomic<uint64_t> next_upload_{0};
  mutable std::mutex mutex_;  // guards counters_ and the renames into the folder
  ExchangeCounters counters_;
};

// `morne loop serve`: answers on `config`'s address until the run stops (an interrupt), saying
// where it listens first ("loop serve: http://HOST:PORT"). Uploads that a killed server left
// under incoming/ are removed first (their workers still hold them and send them again).
void serveRun(const RoleContext& run, const http::HttpServerConfig& config);

}  // namespace morne::loop
