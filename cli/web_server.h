#pragma once
// `morne serve`'s server: HTTP for the browser client's files and a WebSocket per game that
// speaks the engine protocol (docs/protocol.md), one EngineSession per connection. Boost.Beast
// lives in web_server.cpp alone (it costs two minutes to compile); this header keeps it out.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace morne::cli {

// The server's settings, one row each in cmd_serve.cpp (options, config file, help).
struct ServeConfig {
  std::string host = "127.0.0.1";   // the address to bind; 0.0.0.0 opens it to the network
  int port = 8080;                  // 0: any free port
  int max_sessions = 16;            // games (WebSocket connections) at once
  int max_message_bytes = 1 << 20;  // one request; a longer one is refused, the game goes on
  double max_search_ms = 60'000;    // the longest genmove or analyze
  int max_search_threads = 2;       // threads of one search
  int max_search_mb = 256;          // memory of one search's trees
  int search_workers = 0;           // searches at once across games (0: the cores)
  int io_threads = 2;               // threads answering the sockets
  std::string web_dir;              // serve the client from this folder ("": the built-in)
  uint64_t seed = 1;                // seeds each game's dice and agents (game k: seed + k)
};

// What the server has done so far (for the log and tests).
struct ServerCounters {
  int sessions_open = 0;
  uint64_t sessions_served = 0;
  uint64_t sessions_refused = 0;  // beyond max_sessions
  uint64_t requests = 0;
  uint64_t http_requests = 0;
};

class WebServer {
 public:
  // Binds the address and port. Throws IoError when it cannot (a port in use).
  explicit WebServer(const ServeConfig& config);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // The port bound (the one chosen when the config asked for 0).
  int port() const;
  // Serves until `stop` becomes true, then closes every connection and returns.
  void run(const std::atomic<bool>& stop);
  ServerCounters counters() const;

  // The sockets and their state, defined in web_server.cpp.
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The built-in client's files (web/, embedded at build time): the file at `path` ("/app.js"),
// or nullptr.
struct WebAsset {
  const char* path;
  const char* content_type;
  std::string_view bytes;
};
const WebAsset* findWebAsset(const std::string& path);

}  // namespace morne::cli
