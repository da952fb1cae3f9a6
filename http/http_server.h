#pragma once
// A small HTTP/1.1 server for exchanging files with programs that hold a shared token (the run
// folder's transport, loop/run_exchange.h). What each request means is the handler's; this
// server bounds what clients can make it hold (connections, a request's head and body, time)
// and streams request bodies into files, never into memory. Boost.Beast lives in
// http_server.cpp alone: this header keeps it out.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace morne::http {

// The server's settings.
struct HttpServerConfig {
  std::string host = "127.0.0.1";        // the address to bind; 0.0.0.0 opens it to the network
  int port = 0;                          // 0: any free port
  int max_connections = 64;              // connections at once; more are closed at once
  int max_connections_per_address = 16;  // of those, from one peer address
  uint64_t max_body_bytes = uint64_t{1} << 30;  // one request's body; a longer one is refused
  double io_timeout_s = 60;  // a request whose next bytes take longer is dropped (and its body)
  int threads = 2;           // threads answering the sockets
};

// A request as the handler sees it: its head, and (for a request with a body) the file that
// holds the body, complete.
struct HttpRequest {
  std::string method;                                        // "GET", "PUT", ...
  std::string target;                                        // "/v1/latest"
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case
  uint64_t body_bytes = 0;                                   // as Content-Length says
  std::string body_file;                                     // "" before the body is read

  // The value of header `name` (lower case), or "".
  std::string header(const std::string& name) const;
};

// The head of a request as the server reads it from `bytes` (the same parser, head limit and
// translation): the request, or nothing with `error` saying why (an incomplete head is an
// error here). Exposed for the fuzz target of the head parser; any bytes are well defined.
std::optional<HttpRequest> parseRequestHead(std::string_view bytes, std::string& error);

// An answer: `body`, or the bytes of `file` when it is set.
struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string file;
};

// What the requests mean. Called from the server's threads at once: implementations are
// thread-safe. What a call throws is answered 500 with its message, and the server goes on.
class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  // A request with a body, its head read: the path of a new file to write the body into, or ""
  // with `refusal` set to refuse it (the body is then not read). The server removes the file
  // when the body does not arrive whole; else it calls answer() with body_file set.
  virtual std::string bodyFile(const HttpRequest& head, HttpReply& refusal) = 0;
  // The answer to a request (with its body in body_file, when it has one). The handler owns
  // body_file from here on.
  virtual HttpReply answer(const HttpRequest& request) = 0;
};

// What the server has done so far (for the log and tests).
struct HttpCounters {
  uint64_t requests = 0;
  uint64_t bodies_lost = 0;          // bodies that did not arrive whole (their files removed)
  uint64_t connections_refused = 0;  // beyond max_connections
};

class HttpServer {
 public:
  // Binds the address and port. Throws IoError when it cannot (a port in use), ConfigError
  // when the host is not an IP address.
  HttpServer(const HttpServerConfig& config, HttpHandler& handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The port bound (the one chosen when the config asked for 0).
  int port() const;
  // Serves until `stop` becomes true, then closes every connection and returns.
  void run(const std::atomic<bool>& stop);
  HttpCounters counters() const;

  // The sockets and their state, defined in http_server.cpp.
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace morne::http
