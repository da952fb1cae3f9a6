#pragma once
// The client side of http/http_server.h: one connection to http://HOST:PORT, requests with a
// bearer token, answers as text or streamed into a file, each part within a time limit.
// Plain HTTP only (docs/scale-out.md says where that is safe). Boost.Beast lives in
// http_client.cpp alone.

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace morne::http {

// An answer: its status, and its body (when not streamed into a file). Status 0: no answer came
// (`problem` says why: refused, reset, timed out), and the request may be tried again.
struct HttpAnswer {
  int status = 0;
  std::string body;
  std::string problem;

  bool ok() const { return status >= 200 && status < 300; }
};

class HttpClient {
 public:
  // `url` is http://HOST:PORT (a trailing '/' allowed). Throws ConfigError when it is not.
  HttpClient(const std::string& url, std::string token, double timeout_s = 60);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // GET `target`: the body as text, at most `max_bytes` of it (more: status 0 and a problem).
  HttpAnswer get(const std::string& target, uint64_t max_bytes = uint64_t{16} << 20);
  // GET `target` into `file` (written whole or removed), at most `max_bytes` of it (more:
  // status 0 and a problem, and nothing kept).
  HttpAnswer getFile(const std::string& target, const std::string& file,
                     uint64_t max_bytes = std::numeric_limits<uint64_t>::max());
  // PUT the bytes of `file` to `target`, with extra `headers`.
  HttpAnswer putFile(const std::string& target, const std::string& file,
                     const std::vector<std::pair<std::string, std::string>>& headers);
  // PUT `body` to `target`.
  HttpAnswer put(const std::string& target, const std::string& body);

  const std::string& url() const { return url_; }

  // The connection, defined in http_client.cpp.
  struct Impl;

 private:
  std::string url_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace morne::http
