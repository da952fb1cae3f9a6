#pragma once
// A self-play worker of a run it reaches over HTTP (`morne loop serve`, loop/run_exchange.h)
// instead of a shared folder: `morne loop worker DIR --remote URL --token-file FILE`.
//
// DIR is the worker's own folder, laid out as a run folder (loop/run_folder.h): the run's
// settings and scenario as the server gave them, the networks it played (fetched once each, their
// size and CRC-32 checked against latest.json), the position archives its games start from, and
// its games until the server has them. Between chunks it uploads every finished shard and
// archive of its name (checked by the server, renamed into the run whole) and removes its copy
// only once the server has said it holds it. A worker killed at any point loses at most its game
// in progress: its journal becomes a shard when it starts again, and an upload cut short is sent
// again. While the server cannot be reached it waits and tries again (1 s, doubling to 60 s).

#include <atomic>
#include <cstdint>
#include <string>

namespace morne::loop {

struct RemoteWorkerSettings {
  std::string url;        // http://HOST:PORT of `morne loop serve`
  std::string token;      // the run's token (RUN/token on the server)
  std::string dir;        // the worker's own folder
  std::string name;       // its name in the run
  int jobs = 2;           // self-play threads
  int64_t max_games = 0;  // stop after this many games (0: when the run is done)
  double timeout_s = 60;  // the longest wait for any part of an exchange
  // Whether the run's settings may name agents that start programs (ext:cmd=...): without it,
  // a server (or whoever can write its loop.json) cannot run a program on this machine.
  bool allow_programs = false;
  bool quiet = false;
  const std::atomic<bool>* stop = nullptr;
};

// Plays and uploads until the run's last generation is gated, `max_games` are played, or
// `stop` becomes true; returns the games played. Throws ConfigError when the server refuses
// the token, DIR belongs to another run, the run names an agent that starts a program and
// `allow_programs` is off, or the server holds other bytes under one of its names (two workers
// of one name).
int64_t runRemoteWorker(const RemoteWorkerSettings& settings);

}  // namespace morne::loop
