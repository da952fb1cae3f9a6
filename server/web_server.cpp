// `morne serve` on Boost.Beast: connections from the project's listener (http/tcp_listener.h),
// HTTP sessions that serve the browser client's files, and WebSocket sessions that bridge one
// EngineSession each. The only file of server/ that includes Beast (its compile is heavy);
// everything else sees server/web_server.h.
//
// Threads: `io_threads` run the sockets; each game's searches run on its EngineSession's own
// thread, at most `search_workers` at once (SearchSlots), so a socket is answered while an AI
// thinks. Replies come from either kind of thread and are posted to the connection's strand,
// which writes them one at a time, in order.

#include "server/web_server.h"

#include <malloc.h>

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cmath>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "engine/search_slots.h"
#include "engine/session.h"
#include "env/error.h"
#include "http/tcp_listener.h"

namespace morne::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// The largest HTTP request head accepted; requests carry no body.
constexpr size_t kMaxHttpHeaderBytes = 8 * 1024;

// A refusal as the protocol's error reply. `message` may quote what a client sent: bytes that
// are not UTF-8 are replaced, never thrown about.
std::string errorLine(const std::string& code, const std::string& message) {
  return nlohmann::json{{"ok", false}, {"error", {{"code", code}, {"message", message}}}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A file of the client: from `web_dir` when set (for development), else the built-in copy.
// Paths are plain names under the root; anything else is not found.
bool findFile(const std::string& web_dir, std::string path, std::string& body, std::string& type) {
  if (path == "/") path = "/index.html";
  const bool plain = path.size() < 128 && path.find("..") == std::string::npos &&
                     std::all_of(path.begin(), path.end(), [](char c) {
                       return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' ||
                              c == '-' || c == '_';
                     });
  if (!plain) return false;
  const WebAsset* asset = findWebAsset(path);
  if (!asset) return false;  // the built-in list names the files served, from disk too
  type = asset->content_type;
  if (web_dir.empty()) {
    body = std::string(asset->bytes);
    return true;
  }
  std::ifstream in(web_dir + path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  body = text.str();
  return true;
}

std::string lowerCase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Whether the Host header `host` ("name", "name:port", "[v6]:port") names this server: the
// address the client connected to (`local_address`), localhost, or a name of `allowed_hosts`
// (comma-separated; "*" allows any). A page of another site reaching this server by a name of
// its own (DNS rebinding) gives its own name, which is refused.
bool hostIsThisServer(std::string_view host, const std::string& local_address,
                      const std::string& allowed_hosts) {
  std::string_view name = host;
  if (name.starts_with('[')) {  // an IPv6 address: [::1]:8080
    const size_t end = name.find(']');
    if (end == std::string_view::npos) return false;
    name = name.substr(1, end - 1);
  } else if (const size_t colon = name.rfind(':'); colon != std::string_view::npos) {
    name = name.substr(0, colon);
  }
  if (name.empty()) return false;
  const std::string wanted = lowerCase(name);
  if (wanted == lowerCase(local_address) || wanted == "localhost") return true;
  size_t at = 0;
  while (at <= allowed_hosts.size()) {
    size_t end = allowed_hosts.find(',', at);
    if (end == std::string::npos) end = allowed_hosts.size();
    std::string entry = lowerCase(std::string_view(allowed_hosts).substr(at, end - at));
    entry.erase(0, entry.find_first_not_of(' '));
    entry.erase(entry.find_last_not_of(' ') + 1);
    if (entry == "*" || (!entry.empty() && entry == wanted)) return true;
    at = end + 1;
  }
  return false;
}

}  // namespace

struct WebServer::Impl {
  explicit Impl(const ServeConfig& c)
      : config(c),
        slots(c.search_workers > 0
                  ? c.search_workers
                  : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
        listener(c.host, c.port, c.io_threads, "serve: ") {}
  // Counts a connection from `peer`; false when that address holds its most already.
  bool admitPeer(const std::string& peer) {
    std::lock_guard lock(counters_mutex);
    int& open = peers[peer];
    if (open >= config.max_connections_per_peer) {
      ++counters.connections_refused;
      return false;
    }
    ++open;
    return true;
  }
  void releasePeer(const std::string& peer) {
    std::lock_guard lock(counters_mutex);
    if (--peers[peer] <= 0) peers.erase(peer);
  }
  // Seconds until the first open game may be closed as idle (at least 1): when a refused
  // newcomer should try again.
  int retryAfterSeconds() {
    std::lock_guard lock(counters_mutex);
    if (config.idle_timeout_s <= 0 || last_message.empty()) return 60;
    auto first = last_message.begin()->second;
    for (const auto& [socket, at] : last_message) first = std::min(first, at);
    const double left =
        config.idle_timeout_s -
        std::chrono::duration<double>(std::chrono::steady_clock::now() - first).count();
    return std::max(1, static_cast<int>(std::ceil(left)));
  }
  engine::SessionLimits limits() {
    engine::SessionLimits l;
    l.max_search_ms = config.max_search_ms;
    l.max_search_threads = config.max_search_threads;
    l.max_search_bytes = int64_t{config.max_search_mb} << 20;
    l.files = false;
    l.slots = &slots;
    return l;
  }

  ServeConfig config;
  engine::SearchSlots slots;
  mutable std::mutex counters_mutex;  // guards the three below
  ServerCounters counters;
  std::map<std::string, int> peers;  // open connections per remote address
  std::map<const void*, std::chrono::steady_clock::time_point> last_message;  // per open game
  // Declared after what connections touch as they close: destroying the listener's context
  // destroys the connections its pending handlers hold.
  morne::http::TcpListener listener;
};

namespace {

// A connection counted against its remote address's max_connections_per_peer while it lives.
class PeerSlot {
 public:
  PeerSlot(WebServer::Impl& server, std::string peer) : server_(server), peer_(std::move(peer)) {}
  ~PeerSlot() { server_.releasePeer(peer_); }
  PeerSlot(const PeerSlot&) = delete;
  PeerSlot& operator=(const PeerSlot&) = delete;

 private:
  WebServer::Impl& server_;
  std::string peer_;
};

// One WebSocket connection: one game.
class GameSocket : public std::enable_shared_from_this<GameSocket> {
 public:
  GameSocket(tcp::socket&& socket, WebServer::Impl& server, uint64_t seed,
             std::unique_ptr<PeerSlot> peer)
      : ws_(std::move(socket)),
        server_(server),
        seed_(seed),
        peer_(std::move(peer)),
        idle_timer_(ws_.get_executor()),
        resume_(ws_.get_executor()) {}

  ~GameSocket() {
    session_.reset();  // stops its search first: its replies go nowhere now
    {
      std::lock_guard lock(server_.counters_mutex);
      --server_.counters.sessions_open;
      server_.last_message.erase(this);
    }
    // A game's search trees and queues are freed now; hand the pages back to the system
    // instead of keeping them in the allocator's free lists (about 300 MB after a long search).
    malloc_trim(0);
  }

  void start(http::request<http::string_body> upgrade) {
    beast::error_code ignored;  // replies are small and awaited: send them at once (no Nagle)
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "morne"); }));
    // The sink posts each reply to this connection's strand; a reply to a closed connection is
    // dropped.
    std::weak_ptr<GameSocket> weak = shared_from_this();
    auto executor = ws_.get_executor();
    session_ = std::make_unique<engine::EngineSession>(
        seed_,
        [weak, executor](const std::string& line) {
          net::post(executor, [weak, line] {
            if (auto self = weak.lock()) self->send(line);
          });
        },
        server_.limits());
    upgrade_ = std::move(upgrade);  // kept until the handshake is answered
    // Messages are cut at max-message-bytes by onRead itself, which reads a longer one to its
    // end without keeping it: Beast's own limit (16 MiB) would close the connection instead.
    ws_.read_message_max(0);
    ws_.async_accept(upgrade_, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->heard();
      self->read();
    });
  }

 private:
  // A message arrived: the game is not idle; its idle deadline starts again.
  void heard() {
    {
      std::lock_guard lock(server_.counters_mutex);
      server_.last_message[this] = std::chrono::steady_clock::now();
    }
    const double idle = server_.config.idle_timeout_s;
    if (idle <= 0) return;
    idle_timer_.expires_after(std::chrono::milliseconds(static_cast<int64_t>(idle * 1000)));
    idle_timer_.async_wait([weak = weak_from_this()](beast::error_code ec) {
      if (ec) return;  // cancelled by a later message
      if (auto self = weak.lock()) self->closeIdle();
    });
  }

  // No message for idle_timeout_s: the game's place goes to someone else. A game whose own
  // search runs, whose requests still wait for their answers, or whose requests the server
  // holds back (it stopped reading until they are answered), is not idle; one that does not
  // read its replies is.
  void closeIdle() {
    const engine::EngineSession::Backlog waiting = session_->backlog();
    if (waiting.searching || waiting.count > 0 || (paused_ && !paused_by_client_)) {
      heard();
      return;
    }
    closed_ = true;
    resume_.cancel();
    {
      std::lock_guard lock(server_.counters_mutex);
      ++server_.counters.sessions_idle_closed;
    }
    const std::string reason = "idle for " +
                               std::to_string(static_cast<int64_t>(server_.config.idle_timeout_s)) +
                               " s (idle-timeout-s)";
    if (!queue_.empty()) {  // a client that reads nothing: no close handshake to wait for
      beast::get_lowest_layer(ws_).close();
      return;
    }
    ws_.async_close(websocket::close_reason(websocket::close_code::going_away, reason),
                    [self = shared_from_this()](beast::error_code) {
                      beast::get_lowest_layer(self->ws_).close();
                    });
    // A client that does not answer the close frame is cut off 2 s later.
    idle_timer_.expires_after(std::chrono::seconds(2));
    idle_timer_.async_wait([weak = weak_from_this()](beast::error_code ec) {
      if (auto self = weak.lock(); self && !ec) beast::get_lowest_layer(self->ws_).close();
    });
  }

  // Whether this connection holds as much as it may (replies unread by the client, requests
  // waiting for a search): then nothing more is read from it until they drain.
  bool backlogged() const {
    const engine::EngineSession::Backlog waiting = session_->backlog();
    return unsent_bytes_ > kMaxUnsentReplyBytes || waiting.bytes > kMaxWaitingRequestBytes ||
           waiting.count > kMaxWaitingRequests;
  }

  void read() {
    if (closed_) return;
    if (backlogged()) {
      // A write that drains the backlog cancels this wait and reading goes on; the wait holds
      // the game meanwhile.
      paused_ = true;
      paused_by_client_ = unsent_bytes_ > kMaxUnsentReplyBytes;
      resume_.expires_at(std::chrono::steady_clock::time_point::max());
      resume_.async_wait([self = shared_from_this()](beast::error_code) {
        self->paused_ = false;
        if (self->closed_) return;
        if (!self->paused_by_client_) self->heard();  // the wait was the server's, not idleness
        self->read();
      });
      return;
    }
    ws_.async_read_some(
        buffer_, 64 * 1024,
        [self = shared_from_this()](beast::error_code ec, size_t n) { self->onRead(ec, n); });
  }

  // Parts of a message arrive until it is done; one over the limit is read to its end and
  // dropped, then refused, and the game goes on.
  void onRead(beast::error_code ec, size_t n) {
    if (ec) return;      // closed, or a protocol error (Beast has closed the stream)
    if (n > 0) heard();  // a client still sending a long message is not idle
    const size_t limit = static_cast<size_t>(server_.config.max_message_bytes);
    if (oversized_ || message_.size() + buffer_.size() > limit) {
      oversized_ = true;
    } else {
      message_ += beast::buffers_to_string(buffer_.data());
    }
    buffer_.consume(buffer_.size());
    if (!ws_.is_message_done()) {
      read();
      return;
    }
    {
      std::lock_guard lock(server_.counters_mutex);
      ++server_.counters.requests;
    }
    heard();
    // Refusals of the transport take their turn among the session's replies.
    if (oversized_) {
      session_->submitReply(errorLine("bad_request", "message over " + std::to_string(limit) +
                                                         " bytes (max-message-bytes); it was "
                                                         "not read"));
    } else if (!ws_.got_text()) {
      session_->submitReply(
          errorLine("bad_request", "send requests as text frames, one JSON object each"));
    } else {
      session_->submit(message_);
    }
    message_.clear();
    oversized_ = false;
    read();
  }

  void send(const std::string& line) {
    queue_.push_back(line);
    unsent_bytes_ += line.size();
    if (queue_.size() == 1) write();
  }

  void write() {
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) {
                        self->closed_ = true;
                        self->resume_.cancel();
                        return;
                      }
                      self->unsent_bytes_ -= self->queue_.front().size();
                      self->queue_.pop_front();
                      if (!self->queue_.empty()) self->write();
                      if (self->paused_) self->resume_.cancel();
                    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  WebServer::Impl& server_;
  uint64_t seed_;
  std::unique_ptr<PeerSlot> peer_;
  net::steady_timer idle_timer_;  // closes the game after idle_timeout_s without a message
  http::request<http::string_body> upgrade_;
  std::unique_ptr<engine::EngineSession> session_;
  beast::flat_buffer buffer_;
  std::string message_;
  bool oversized_ = false;
  bool paused_ = false;            // not reading: the backlog is over its bound
  bool paused_by_client_ = false;  // ... because the client does not read its replies
  bool closed_ = false;            // closed by the server (idle) or broken: no more reads
  net::steady_timer resume_;       // while paused: cancelled to read again
  std::deque<std::string> queue_;  // replies waiting to be written, on the strand
  size_t unsent_bytes_ = 0;        // their bytes
};

// One HTTP connection: files, or the upgrade to a game's WebSocket.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(tcp::socket&& socket, WebServer::Impl& server, std::unique_ptr<PeerSlot> peer)
      : stream_(std::move(socket)), server_(server), peer_(std::move(peer)) {}

  void start() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxHttpHeaderBytes);
    parser_->body_limit(0);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->onRead(ec); });
  }

  void onRead(beast::error_code ec) {
    if (ec == http::error::end_of_stream) {
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    if (ec) {  // a malformed or oversized head: a 400, then the connection closes
      respond(http::status::bad_request, "text/plain", "bad request: " + ec.message() + "\n",
              false);
      return;
    }
    http::request<http::string_body> req = parser_->release();
    {
      std::lock_guard lock(server_.counters_mutex);
      ++server_.counters.http_requests;
    }
    if (!fromThisServer(req)) return;
    if (websocket::is_upgrade(req)) {
      upgrade(std::move(req));
      return;
    }
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      respond(http::status::method_not_allowed, "text/plain", "GET only\n", req.keep_alive());
      return;
    }
    std::string body;
    std::string type;
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    if (!findFile(server_.config.web_dir, path, body, type)) {
      respond(http::status::not_found, "text/plain", "not found: " + path + "\n", req.keep_alive());
      return;
    }
    respond(http::status::ok, type, req.method() == http::verb::head ? "" : body, req.keep_alive());
  }

  // The WebSocket of a game, at /ws, from a page of this server (a page of another site may
  // not drive it), while there is room for another game.
  void upgrade(http::request<http::string_body> req) {
    if (req.target() != "/ws") {
      respond(http::status::not_found, "text/plain", "the game socket is /ws\n", false);
      return;
    }
    uint64_t seed = 0;
    bool admitted = false;
    {
      std::lock_guard lock(server_.counters_mutex);
      ServerCounters& c = server_.counters;
      admitted = c.sessions_open < server_.config.max_sessions;
      if (admitted) {
        ++c.sessions_open;
        seed = server_.config.seed + c.sessions_served++;
      } else {
        ++c.sessions_refused;
      }
    }
    if (!admitted) {
      const int retry = server_.retryAfterSeconds();
      respond(http::status::service_unavailable, "application/json",
              errorLine("too_many_sessions",
                        std::to_string(server_.config.max_sessions) +
                            " games are open, the most this server holds (max-sessions); "
                            "retry in " +
                            std::to_string(retry) + " s"),
              false, retry);
      return;
    }
    std::make_shared<GameSocket>(stream_.release_socket(), server_, seed, std::move(peer_))
        ->start(std::move(req));
  }

  // Whether the request names this server (Host) and, when it comes from a page (Origin), a
  // page of this server: a page of another site may not drive the games, even when its own
  // name leads to this machine. Answers 403 otherwise.
  bool fromThisServer(const http::request<http::string_body>& req) {
    beast::error_code ec;
    const std::string local = stream_.socket().local_endpoint(ec).address().to_string();
    const std::string host(req[http::field::host]);
    const std::string origin(req[http::field::origin]);
    std::string refused;
    if (!hostIsThisServer(host, local, server_.config.allowed_hosts)) {
      refused = "host \"" + host.substr(0, 200) +
                "\" is not a name of this server (allowed-hosts adds names)";
    } else if (!origin.empty() && origin != "http://" + host && origin != "https://" + host) {
      refused = "origin " + origin.substr(0, 200) + " is not this server";
    }
    if (refused.empty()) return true;
    {
      std::lock_guard lock(server_.counters_mutex);
      ++server_.counters.hosts_refused;
    }
    respond(http::status::forbidden, "application/json", errorLine("forbidden", refused), false);
    return false;
  }

  void respond(http::status status, const std::string& type, const std::string& body,
               bool keep_alive, int retry_after_s = 0) {
    auto res = std::make_shared<http::response<http::string_body>>(status, 11);
    if (retry_after_s > 0) res->set(http::field::retry_after, std::to_string(retry_after_s));
    res->set(http::field::server, "morne");
    res->set(http::field::content_type, type);
    res->set(http::field::cache_control, "no-store");
    res->keep_alive(keep_alive);
    res->body() = body;
    res->prepare_payload();
    http::async_write(stream_, *res,
                      [self = shared_from_this(), res](beast::error_code ec, size_t) {
                        if (ec) return;
                        if (!res->keep_alive()) {
                          self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
                          return;
                        }
                        self->read();
                      });
  }

  beast::tcp_stream stream_;
  WebServer::Impl& server_;
  std::unique_ptr<PeerSlot> peer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

WebServer::WebServer(const ServeConfig& config) : impl_(std::make_unique<Impl>(config)) {}

WebServer::~WebServer() = default;

int WebServer::port() const { return impl_->listener.port(); }

ServerCounters WebServer::counters() const {
  std::lock_guard lock(impl_->counters_mutex);
  return impl_->counters;
}

// Serves connections, each counted against its address's max_connections_per_peer; an accept
// that fails (no file descriptor left) is counted, and the listener backs off.
void WebServer::run(const std::atomic<bool>& stop) {
  Impl& server = *impl_;
  server.listener.run(
      stop, {.admit = [&server](const std::string& peer) { return server.admitPeer(peer); },
             .serve =
                 [&server](tcp::socket socket, const std::string& peer) {
                   std::make_shared<HttpConnection>(std::move(socket), server,
                                                    std::make_unique<PeerSlot>(server, peer))
                       ->start();
                 },
             .accept_failed =
                 [&server] {
                   std::lock_guard lock(server.counters_mutex);
                   ++server.counters.accept_failures;
                 }});
}

}  // namespace morne::server
