#pragma once
// `morne serve`'s server: HTTP for the browser client's files and a WebSocket per game that
// speaks the engine protocol (docs/protocol.md), one EngineSession per connection. Boost.Beast
// lives in web_server.cpp alone (it costs two minutes to compile); this header keeps it out.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace morne::server {

// The server's settings, one row each in cmd_serve.cpp (options, config file, help).
struct ServeConfig {
  std::string host = "127.0.0.1";   // the address to bind; 0.0.0.0 opens it to the network
  int port = 8080;                  // 0: any free port
  int max_sessions = 16;            // games (WebSocket connections) at once
  int max_message_bytes = 1 << 20;  // one request; a longer one is refused, the game goes on
  double idle_timeout_s = 900;      // a game that sends nothing for this long is closed (0: never)
  int max_connections_per_peer = 64;  // connections (files and games) from one address at once
  std::string allowed_hosts;          // names besides the bound address and localhost that the Host
                                      // header may give, comma-separated ("*": any, behind a proxy)
  double max_search_ms = 60'000;      // the longest genmove or analyze
  int max_search_threads = 2;         // threads of one search
  int max_search_mb = 256;            // memory of one search's trees
  int search_workers = 0;             // searches at once across games (0: the cores)
  int io_threads = 2;                 // threads answering the sockets
  std::string web_dir;                // serve the client from this folder ("": the built-in)
  uint64_t seed = 1;                  // seeds each game's dice and agents (game k: seed + k)
};

// What the server has done so far (for the log and tests).
struct ServerCounters {
  int sessions_open = 0;
  uint64_t sessions_served = 0;
  uint64_t sessions_refused = 0;      // beyond max_sessions
  uint64_t sessions_idle_closed = 0;  // closed after idle_timeout_s without a message
  uint64_t connections_refused = 0;   // beyond max_connections_per_peer
  uint64_t hosts_refused = 0;         // a Host or Origin that is not this server's
  uint64_t accept_failures = 0;       // accept() failed (out of file descriptors): backed off
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

// What one game's connection may make the server hold besides its search: replies not yet
// read by the client, and requests waiting for a search in progress. Past either bound the
// server stops reading from that client until they drain (TCP then holds the client back).
inline constexpr size_t kMaxUnsentReplyBytes = size_t{4} << 20;
inline constexpr size_t kMaxWaitingRequestBytes = size_t{4} << 20;
inline constexpr size_t kMaxWaitingRequests = 256;

// The built-in client's files (web/, embedded at build time): the file at `path` ("/app.js"),
// or nullptr.
struct WebAsset {
  const char* path;
  const char* content_type;
  std::string_view bytes;
};
const WebAsset* findWebAsset(const std::string& path);

}  // namespace morne::server
