// HttpServer on Boost.Beast: one connection object per socket that http/tcp_listener.h accepts and
// the server admits (max_connections, and per address), which reads a
// request's head, streams its body (when it has one) into the file the handler names, asks the
// handler for the answer and writes it, bytes or a file. Every read and write of a part re-arms
// the connection's timer: a peer that stops sending or reading is dropped, and a body that did
// not arrive whole is removed.

#include "http/http_server.h"

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <optional>

#include "env/error.h"
#include "http/tcp_listener.h"

namespace morne::http {

namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// The largest request head accepted.
constexpr uint32_t kMaxHeadBytes = 8 * 1024;

std::string lowerCase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return out;
}

std::string errorBody(const std::string& message) {
  std::string quoted;
  for (const char c : message) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  }
  return "{\"error\":\"" + quoted + "\"}";
}

// What a parsed head says, as the handler sees it.
template <class Fields>
HttpRequest requestOf(const bhttp::request_header<Fields>& h) {
  HttpRequest request;
  request.method = std::string(h.method_string());
  request.target = std::string(h.target());
  for (const auto& field : h) {
    request.headers.emplace_back(lowerCase(std::string(field.name_string())),
                                 std::string(field.value()));
  }
  return request;
}

// A parser of request heads as the server sets it up.
void limitHead(bhttp::request_parser<bhttp::empty_body>& parser) {
  parser.header_limit(kMaxHeadBytes);
  // No bound while the head is read: a body over the bound is answered 413 (onHead), not
  // dropped with the connection before an answer. (A number, never boost::none: Boost 1.74
  // compares a length with none as if none were 0.)
  parser.body_limit(std::numeric_limits<uint64_t>::max());
}

}  // namespace

std::optional<HttpRequest> parseRequestHead(std::string_view bytes, std::string& error) {
  bhttp::request_parser<bhttp::empty_body> parser;
  limitHead(parser);
  parser.eager(false);
  beast::error_code ec;
  size_t used = 0;
  while (!ec && used < bytes.size() && !parser.is_header_done()) {
    const size_t n = parser.put(net::buffer(bytes.data() + used, bytes.size() - used), ec);
    if (n == 0 && !ec) break;  // needs more than there is
    used += n;
  }
  if (ec) {
    error = ec.message();
    return std::nullopt;
  }
  if (!parser.is_header_done()) {
    error = "the head is incomplete";
    return std::nullopt;
  }
  HttpRequest request = requestOf(parser.get().base());
  if (parser.content_length()) request.body_bytes = *parser.content_length();
  return request;
}

std::string HttpRequest::header(const std::string& name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return value;
  return "";
}

struct HttpServer::Impl {
  Impl(const HttpServerConfig& c, HttpHandler& h)
      : config(c), handler(h), listener(c.host, c.port, c.threads, "") {}

  // Counts a connection from `address`; false when the server or that address holds its most.
  bool admit(const std::string& address) {
    std::lock_guard lock(mutex);
    if (open >= config.max_connections ||
        open_by_address[address] >= config.max_connections_per_address) {
      ++counters.connections_refused;
      if (open_by_address[address] == 0) open_by_address.erase(address);
      return false;
    }
    ++open;
    ++open_by_address[address];
    return true;
  }

  HttpServerConfig config;
  HttpHandler& handler;
  mutable std::mutex mutex;  // guards the three below
  HttpCounters counters;
  int open = 0;
  std::map<std::string, int> open_by_address;
  // Declared after what connections touch as they close: destroying the listener's context
  // destroys the connections its pending handlers hold.
  TcpListener listener;
};

namespace {

// One connection: requests one after another (keep-alive) until the peer closes, a request is
// refused before its body, or a part times out.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket&& socket, std::string address, HttpServer::Impl& server)
      : stream_(std::move(socket)), address_(std::move(address)), server_(server) {}

  ~Connection() {
    dropBody();
    std::lock_guard lock(server_.mutex);
    --server_.open;
    if (--server_.open_by_address[address_] == 0) server_.open_by_address.erase(address_);
  }

  void readHead() {
    head_.emplace();
    limitHead(*head_);
    arm();
    bhttp::async_read_header(stream_, buffer_, *head_,
                             [self = shared_from_this()](beast::error_code ec, size_t) {
                               if (!ec) self->onHead();
                             });
  }

 private:
  void arm() {
    stream_.expires_after(std::chrono::milliseconds(
        static_cast<int64_t>(std::max(0.001, server_.config.io_timeout_s) * 1000)));
  }

  // The handler's answer; a handler that throws is answered 500 with its message, and the
  // server goes on.
  HttpReply answerOf(const HttpRequest& request) {
    try {
      return server_.handler.answer(request);
    } catch (const std::exception& e) {
      if (!request.body_file.empty()) std::remove(request.body_file.c_str());
      return {500, "application/json", errorBody(e.what()), ""};
    }
  }

  void onHead() {
    {
      std::lock_guard lock(server_.mutex);
      ++server_.counters.requests;
    }
    const auto& h = head_->get();
    request_ = requestOf(h.base());
    const bool has_body = h.has_content_length() || h.chunked();
    if (!has_body) {
      reply(answerOf(request_), h.keep_alive());
      return;
    }
    if (!h.has_content_length()) {
      reply({411, "application/json", errorBody("a body needs a Content-Length"), ""}, false);
      return;
    }
    request_.body_bytes = *head_->content_length();
    if (request_.body_bytes > server_.config.max_body_bytes) {
      reply({413, "application/json",
             errorBody("the body's " + std::to_string(request_.body_bytes) +
                       " bytes are more than this server takes (" +
                       std::to_string(server_.config.max_body_bytes) + ")"),
             ""},
            false);
      return;
    }
    HttpReply refusal;
    std::string file;
    try {
      file = server_.handler.bodyFile(request_, refusal);
    } catch (const std::exception& e) {
      refusal = {500, "application/json", errorBody(e.what()), ""};
    }
    if (file.empty()) {
      reply(refusal, false);
      return;
    }
    body_.emplace(std::move(*head_));
    body_->body_limit(server_.config.max_body_bytes);
    beast::error_code ec;
    body_->get().body().open(file.c_str(), beast::file_mode::write, ec);
    if (ec) {
      reply({500, "application/json", errorBody("cannot write the body: " + ec.message()), ""},
            false);
      return;
    }
    body_path_ = file;
    if (body_->is_done()) {  // Content-Length: 0
      onBody();
      return;
    }
    readBody();
  }

  // Reads the body part by part, each within io_timeout_s.
  void readBody() {
    arm();
    bhttp::async_read_some(stream_, buffer_, *body_,
                           [self = shared_from_this()](beast::error_code ec, size_t) {
                             if (ec) return;  // the file is removed with the connection
                             if (!self->body_->is_done()) {
                               self->readBody();
                               return;
                             }
                             self->onBody();
                           });
  }

  void onBody() {
    const bool keep_alive = body_->get().keep_alive();
    body_->get().body().close();
    body_.reset();
    request_.body_file = body_path_;
    body_path_.clear();  // the handler's now
    reply(answerOf(request_), keep_alive);
  }

  // A body that did not arrive whole: its file goes.
  void dropBody() {
    if (body_path_.empty()) return;
    body_.reset();
    std::remove(body_path_.c_str());
    body_path_.clear();
    std::lock_guard lock(server_.mutex);
    ++server_.counters.bodies_lost;
  }

  // A request without the token (401) ends its connection: a socket that cannot authenticate
  // holds no slot.
  void reply(const HttpReply& r, bool keep_alive) {
    if (r.status == 401) keep_alive = false;
    auto res = std::make_shared<bhttp::response<bhttp::file_body>>();
    if (!r.file.empty()) {
      beast::error_code ec;
      res->body().open(r.file.c_str(), beast::file_mode::scan, ec);
      if (ec) {
        reply({404, "application/json", errorBody(r.file + ": " + ec.message()), ""}, keep_alive);
        return;
      }
      res->result(r.status);
    } else {
      text_ = std::make_shared<bhttp::response<bhttp::string_body>>(
          static_cast<bhttp::status>(r.status), 11);
      text_->set(bhttp::field::server, "morne");
      text_->set(bhttp::field::content_type, r.content_type);
      text_->set(bhttp::field::cache_control, "no-store");
      text_->keep_alive(keep_alive);
      text_->body() = r.body;
      text_->prepare_payload();
      writeText();
      return;
    }
    res->version(11);
    res->set(bhttp::field::server, "morne");
    res->set(bhttp::field::content_type, r.content_type);
    res->set(bhttp::field::cache_control, "no-store");
    res->keep_alive(keep_alive);
    res->prepare_payload();
    file_ = res;
    file_writer_.emplace(*file_);
    writeFile();
  }

  void writeText() {
    arm();
    bhttp::async_write(stream_, *text_, [self = shared_from_this()](beast::error_code ec, size_t) {
      self->written(ec, self->text_->keep_alive());
    });
  }

  // Writes the file part by part, each within io_timeout_s.
  void writeFile() {
    arm();
    bhttp::async_write_some(stream_, *file_writer_,
                            [self = shared_from_this()](beast::error_code ec, size_t) {
                              if (ec) return;
                              if (!self->file_writer_->is_done()) {
                                self->writeFile();
                                return;
                              }
                              const bool keep_alive = self->file_->keep_alive();
                              self->file_writer_.reset();
                              self->file_.reset();
                              self->written(ec, keep_alive);
                            });
  }

  void written(beast::error_code ec, bool keep_alive) {
    if (ec) return;
    if (!keep_alive) {
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    readHead();
  }

  beast::tcp_stream stream_;
  std::string address_;  // the peer's address, as counted in open_by_address
  HttpServer::Impl& server_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::empty_body>> head_;
  std::optional<bhttp::request_parser<bhttp::file_body>> body_;
  std::string body_path_;  // the body's file while it is being read
  HttpRequest request_;
  std::shared_ptr<bhttp::response<bhttp::string_body>> text_;
  std::shared_ptr<bhttp::response<bhttp::file_body>> file_;
  std::optional<bhttp::response_serializer<bhttp::file_body>> file_writer_;
};

}  // namespace

HttpServer::HttpServer(const HttpServerConfig& config, HttpHandler& handler)
    : impl_(std::make_unique<Impl>(config, handler)) {}

HttpServer::~HttpServer() = default;

int HttpServer::port() const { return impl_->listener.port(); }

HttpCounters HttpServer::counters() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->counters;
}

void HttpServer::run(const std::atomic<bool>& stop) {
  Impl& server = *impl_;
  server.listener.run(
      stop, {.admit = [&server](const std::string& address) { return server.admit(address); },
             .serve =
                 [&server](tcp::socket socket, const std::string& address) {
                   beast::error_code ignored;  // answers' heads and bodies go in separate writes
                   socket.set_option(tcp::no_delay(true), ignored);
                   std::make_shared<Connection>(std::move(socket), address, server)->readHead();
                 },
             .accept_failed = nullptr});
}

}  // namespace morne::http
