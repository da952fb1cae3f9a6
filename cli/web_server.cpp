// `morne serve` on Boost.Beast: an acceptor, HTTP sessions that serve the browser client's
// files, and WebSocket sessions that bridge one EngineSession each. The only file that includes
// Beast (its compile is heavy); everything else sees cli/web_server.h.
//
// Threads: `io_threads` run the sockets; each game's searches run on its EngineSession's own
// thread, at most `search_workers` at once (SearchSlots), so a socket is answered while an AI
// thinks. Replies come from either kind of thread and are posted to the connection's strand,
// which writes them one at a time, in order.

#include "cli/web_server.h"

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "cli/engine_session.h"
#include "cli/search_slots.h"
#include "env/error.h"

namespace morne::cli {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// The largest HTTP request head accepted; requests carry no body.
constexpr size_t kMaxHttpHeaderBytes = 8 * 1024;

std::string errorLine(const std::string& code, const std::string& message) {
  return nlohmann::json{{"ok", false}, {"error", {{"code", code}, {"message", message}}}}.dump();
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

}  // namespace

struct WebServer::Impl {
  explicit Impl(const ServeConfig& c)
      : config(c),
        slots(c.search_workers > 0
                  ? c.search_workers
                  : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
        ioc(std::max(1, c.io_threads)),
        acceptor(ioc) {}

  void accept();
  SessionLimits limits() {
    SessionLimits l;
    l.max_search_ms = config.max_search_ms;
    l.max_search_threads = config.max_search_threads;
    l.max_search_bytes = int64_t{config.max_search_mb} << 20;
    l.files = false;
    l.slots = &slots;
    return l;
  }

  ServeConfig config;
  SearchSlots slots;
  net::io_context ioc;
  tcp::acceptor acceptor;
  mutable std::mutex counters_mutex;
  ServerCounters counters;
};

namespace {

// One WebSocket connection: one game.
class GameSocket : public std::enable_shared_from_this<GameSocket> {
 public:
  GameSocket(tcp::socket&& socket, WebServer::Impl& server, uint64_t seed)
      : ws_(std::move(socket)), server_(server), seed_(seed) {}

  ~GameSocket() {
    session_.reset();  // stops its search first: its replies go nowhere now
    std::lock_guard lock(server_.counters_mutex);
    --server_.counters.sessions_open;
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
    session_ = std::make_unique<EngineSession>(
        seed_,
        [weak, executor](const std::string& line) {
          net::post(executor, [weak, line] {
            if (auto self = weak.lock()) self->send(line);
          });
        },
        server_.limits());
    upgrade_ = std::move(upgrade);  // kept until the handshake is answered
    ws_.async_accept(upgrade_, [self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }

 private:
  void read() {
    ws_.async_read_some(
        buffer_, 64 * 1024,
        [self = shared_from_this()](beast::error_code ec, size_t n) { self->onRead(ec, n); });
  }

  // Parts of a message arrive until it is done; one over the limit is read to its end and
  // dropped, then refused, and the game goes on.
  void onRead(beast::error_code ec, size_t /*n*/) {
    if (ec) return;  // closed, or a protocol error (Beast has closed the stream)
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
    if (queue_.size() == 1) write();
  }

  void write() {
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) return;
                      self->queue_.pop_front();
                      if (!self->queue_.empty()) self->write();
                    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  WebServer::Impl& server_;
  uint64_t seed_;
  http::request<http::string_body> upgrade_;
  std::unique_ptr<EngineSession> session_;
  beast::flat_buffer buffer_;
  std::string message_;
  bool oversized_ = false;
  std::deque<std::string> queue_;  // replies waiting to be written, on the strand
};

// One HTTP connection: files, or the upgrade to a game's WebSocket.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(tcp::socket&& socket, WebServer::Impl& server)
      : stream_(std::move(socket)), server_(server) {}

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
    const std::string origin(req[http::field::origin]);
    const std::string host(req[http::field::host]);
    if (!origin.empty() && origin != "http://" + host && origin != "https://" + host) {
      respond(http::status::forbidden, "application/json",
              errorLine("forbidden", "origin " + origin + " is not this server"), false);
      return;
    }
    uint64_t seed = 0;
    {
      std::lock_guard lock(server_.counters_mutex);
      ServerCounters& c = server_.counters;
      if (c.sessions_open >= server_.config.max_sessions) {
        ++c.sessions_refused;
        respond(http::status::service_unavailable, "application/json",
                errorLine("too_many_sessions", std::to_string(c.sessions_open) +
                                                   " games are open, the most this "
                                                   "server holds (max-sessions)"),
                false);
        return;
      }
      ++c.sessions_open;
      seed = server_.config.seed + c.sessions_served++;
    }
    std::make_shared<GameSocket>(stream_.release_socket(), server_, seed)->start(std::move(req));
  }

  void respond(http::status status, const std::string& type, const std::string& body,
               bool keep_alive) {
    auto res = std::make_shared<http::response<http::string_body>>(status, 11);
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
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void WebServer::Impl::accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;
    if (!ec) std::make_shared<HttpConnection>(std::move(socket), *this)->start();
    accept();
  });
}

WebServer::WebServer(const ServeConfig& config) : impl_(std::make_unique<Impl>(config)) {
  beast::error_code ec;
  const auto address = net::ip::make_address(config.host, ec);
  if (ec) throw ConfigError("serve: --host " + config.host + " is not an IP address");
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(config.port));
  tcp::acceptor& a = impl_->acceptor;
  a.open(endpoint.protocol(), ec);
  if (!ec) a.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) a.bind(endpoint, ec);
  if (!ec) a.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    throw IoError("serve: cannot listen on " + config.host + ":" + std::to_string(config.port) +
                  ": " + ec.message());
  }
}

WebServer::~WebServer() = default;

int WebServer::port() const { return impl_->acceptor.local_endpoint().port(); }

ServerCounters WebServer::counters() const {
  std::lock_guard lock(impl_->counters_mutex);
  return impl_->counters;
}

void WebServer::run(const std::atomic<bool>& stop) {
  impl_->accept();
  std::vector<std::thread> threads;
  for (int i = 0; i < std::max(1, impl_->config.io_threads); ++i)
    threads.emplace_back([this] { impl_->ioc.run(); });
  while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  impl_->ioc.stop();
  for (std::thread& t : threads) t.join();
}

}  // namespace morne::cli
