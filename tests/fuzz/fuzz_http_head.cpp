// Fuzz target: the request-head parser of `morne loop serve` (http/http_server.h,
// parseRequestHead: Beast's parser with the server's limits, and the translation the handler
// sees) on arbitrary bytes. Either a request whose fields hold what the bytes said, or an
// error; never a crash.

#include <string>

#include "http/http_server.h"
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morne;
  std::string error;
  const std::optional<http::HttpRequest> request =
      http::parseRequestHead(fuzz::text(data, size), error);
  if (!request) {
    fuzz::fuzzRequire(!error.empty(), "a refused head says why");
    return 0;
  }
  fuzz::fuzzRequire(!request->method.empty(), "a parsed head has a method");
  fuzz::fuzzRequire(request->target.size() <= size, "the target comes from the bytes");
  for (const auto& [name, value] : request->headers) {
    for (const char c : name)
      fuzz::fuzzRequire(!(c >= 'A' && c <= 'Z'), "header names in lower case");
    fuzz::fuzzRequire(name.size() + value.size() <= size, "headers come from the bytes");
  }
  return 0;
}
