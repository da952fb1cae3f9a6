// HttpClient on Boost.Beast: asynchronous operations run one at a time on the client's own
// io_context, so that each part (connecting, a piece of a body) has its deadline; the connection
// is kept between requests and made again after any failure.

#include "http/http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>

#include "env/error.h"

namespace morne::http {

namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

struct HttpClient::Impl {
  net::io_context ioc;
  std::optional<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
  std::string host, port, token;
  double timeout_s = 60;

  void arm() {
    stream->expires_after(std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000)));
  }

  // Runs the asynchronous operation `start(handler)` to its end.
  template <class Start>
  beast::error_code wait(Start start) {
    beast::error_code result = net::error::would_block;
    start([&](beast::error_code ec, auto&&...) { result = ec; });
    ioc.restart();
    ioc.run();
    return result;
  }

  beast::error_code connect() {
    if (stream) return {};
    tcp::resolver resolver(ioc);
    beast::error_code ec;
    const auto endpoints = resolver.resolve(host, port, ec);
    if (ec) return ec;
    stream.emplace(ioc);
    arm();
    ec = wait([&](auto handler) { stream->async_connect(endpoints, handler); });
    if (ec) {
      stream.reset();
      return ec;
    }
    // A request's head and body go in separate writes: without this, Nagle's algorithm held
    // the body until the server's delayed acknowledgement, 40 ms a request.
    beast::error_code ignored;
    stream->socket().set_option(tcp::no_delay(true), ignored);
    return ec;
  }

  void drop() {
    if (!stream) return;
    beast::error_code ignored;
    stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream.reset();
    buffer.clear();
  }

  template <class Body>
  void prepare(bhttp::request<Body>& req, bhttp::verb verb, const std::string& target) {
    req.method(verb);
    req.target(target);
    req.version(11);
    req.set(bhttp::field::host, host + ":" + port);
    req.set(bhttp::field::user_agent, "morne");
    req.set(bhttp::field::authorization, "Bearer " + token);
    req.keep_alive(true);
  }

  // Sends `req` and reads an answer of at most `max_bytes` as text.
  template <class Body>
  HttpAnswer textAnswer(bhttp::request<Body>& req, uint64_t max_bytes) {
    bhttp::response_parser<bhttp::string_body> parser;
    parser.body_limit(max_bytes);
    HttpAnswer answer = exchange(req, parser);
    if (answer.status != 0) answer.body = std::move(parser.get().body());
    return answer;
  }

  // Sends `req` part by part, then reads the answer's head and its body into `parser`.
  template <class Body, class ResponseBody>
  HttpAnswer exchange(bhttp::request<Body>& req, bhttp::response_parser<ResponseBody>& parser) {
    HttpAnswer answer;
    beast::error_code ec = connect();
    if (!ec) {
      bhttp::request_serializer<Body> writer(req);
      while (!ec && !writer.is_done()) {
        arm();
        ec = wait([&](auto handler) { bhttp::async_write_some(*stream, writer, handler); });
      }
    }
    // A server that refuses a body answers before reading it: its answer counts.
    if (!ec || ec == net::error::broken_pipe || ec == net::error::connection_reset) {
      beast::error_code read_ec;
      while (!read_ec && !parser.is_done()) {
        arm();
        read_ec =
            wait([&](auto handler) { bhttp::async_read_some(*stream, buffer, parser, handler); });
      }
      ec = read_ec;
    }
    if (ec) {
      drop();
      answer.problem =
          ec == beast::error::timeout
              ? "no answer within " + std::to_string(static_cast<int>(timeout_s)) + " s"
              : ec.message();
      return answer;
    }
    answer.status = static_cast<int>(parser.get().result_int());
    if (!parser.get().keep_alive()) drop();
    return answer;
  }
};

HttpClient::HttpClient(const std::string& url, std::string token, double timeout_s)
    : url_(url), impl_(std::make_unique<Impl>()) {
  std::string rest = url;
  if (!rest.starts_with("http://")) {
    throw ConfigError("--remote " + url +
                      ": give http://HOST:PORT (plain HTTP; docs/scale-out.md says how to "
                      "carry it over networks you do not trust)");
  }
  rest = rest.substr(7);
  if (rest.ends_with('/')) rest.pop_back();
  const size_t colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size() ||
      rest.find('/') != std::string::npos ||
      rest.find_first_not_of("0123456789", colon + 1) != std::string::npos) {
    throw ConfigError("--remote " + url + ": give http://HOST:PORT");
  }
  impl_->host = rest.substr(0, colon);
  if (impl_->host.starts_with('[') && impl_->host.ends_with(']'))
    impl_->host = impl_->host.substr(1, impl_->host.size() - 2);
  impl_->port = rest.substr(colon + 1);
  impl_->token = std::move(token);
  impl_->timeout_s = timeout_s;
}

HttpClient::~HttpClient() = default;

HttpAnswer HttpClient::get(const std::string& target, uint64_t max_bytes) {
  bhttp::request<bhttp::empty_body> req;
  impl_->prepare(req, bhttp::verb::get, target);
  return impl_->textAnswer(req, max_bytes);
}

HttpAnswer HttpClient::getFile(const std::string& target, const std::string& file,
                               uint64_t max_bytes) {
  bhttp::request<bhttp::empty_body> req;
  impl_->prepare(req, bhttp::verb::get, target);
  bhttp::response_parser<bhttp::file_body> parser;
  // A number, never boost::none: Boost 1.74 compares a length with none as if none were 0. A
  // body declared longer is refused before any of it is written.
  parser.body_limit(max_bytes);
  beast::error_code ec;
  parser.get().body().open(file.c_str(), beast::file_mode::write, ec);
  if (ec) throw IoError(file + ": cannot write: " + ec.message());
  HttpAnswer answer = impl_->exchange(req, parser);
  parser.get().body().close();
  if (!answer.ok()) std::remove(file.c_str());
  return answer;
}

HttpAnswer HttpClient::putFile(const std::string& target, const std::string& file,
                               const std::vector<std::pair<std::string, std::string>>& headers) {
  bhttp::request<bhttp::file_body> req;
  impl_->prepare(req, bhttp::verb::put, target);
  for (const auto& [name, value] : headers) req.set(name, value);
  beast::error_code ec;
  req.body().open(file.c_str(), beast::file_mode::scan, ec);
  if (ec) throw IoError(file + ": cannot read: " + ec.message());
  req.prepare_payload();
  return impl_->textAnswer(req, uint64_t{1} << 20);
}

HttpAnswer HttpClient::put(const std::string& target, const std::string& body) {
  bhttp::request<bhttp::string_body> req;
  impl_->prepare(req, bhttp::verb::put, target);
  req.body() = body;
  req.prepare_payload();
  return impl_->textAnswer(req, uint64_t{1} << 20);
}

}  // namespace morne::http
