// Fuzz target: engine protocol requests on a live session (duel loaded), one per line. Every
// request gets exactly one reply, a JSON object with "ok"; none is an internal_error.

#include <nlohmann/json.hpp>
#include <string>

#include "engine/session.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

// genmove and analyze search for as long as asked: a fuzzer that writes sims=10000000 finds a
// slow search, not a bug. Their argument checks are tested in tests/engine/limits_test.cpp.
bool slowSearch(std::string_view line) {
  if (line.find("analyze") != std::string_view::npos) return true;
  if (line.find("genmove") == std::string_view::npos) return false;
  for (const char* key : {"mcts", "sims", "ms", "nodes", "threads", "\\u", "az"})
    if (line.find(key) != std::string_view::npos) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using morne::fuzz::fuzzRequire;
  morne::engine::EngineSession session(1);
  bool quit = false;
  session.handle(R"({"cmd":"load","scenario":"duel"})", &quit);
  std::string_view in = morne::fuzz::text(data, size);
  for (int lines = 0; !in.empty() && lines < 32 && !quit; ++lines) {
    const size_t end = std::min(in.find('\n'), in.size());
    const std::string line(in.substr(0, end));
    in.remove_prefix(std::min(end + 1, in.size()));
    if (slowSearch(line)) continue;
    const std::string reply = session.handle(line, &quit);
    const nlohmann::json r = nlohmann::json::parse(reply, nullptr, false);
    fuzzRequire(r.is_object() && r.contains("ok") && r["ok"].is_boolean(), "reply without ok");
    if (!r["ok"].get<bool>()) {
      fuzzRequire(r["error"]["code"] != "internal_error", "internal_error reply");
      fuzzRequire(r["error"]["message"].is_string(), "error without message");
    }
  }
  return 0;
}
