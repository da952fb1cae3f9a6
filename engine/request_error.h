#pragma once
// Internal to the engine protocol: a request that cannot be served. EngineSession turns it
// into {"ok": false, "error": {"code": ..., "message": ..., "details": ...}}, plus "reason" and
// "rule" when the rules refuse it.

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

#include "env/error.h"
#include "env/io/refusal.h"

namespace morne::engine {

// what() is one precise sentence for the user.
class RequestError : public Error {
 public:
  RequestError(std::string error_code, const std::string& message,
               nlohmann::json error_details = nullptr)
      : Error(message), code(std::move(error_code)), details(std::move(error_details)) {}

  // The rules refuse the request: code "illegal_action" with the refusal's reason and rule; the
  // message is `context` (the action's text, say), a colon and the refusal's sentence.
  static RequestError refused(const env::Refusal& why, const std::string& context = {}) {
    RequestError e("illegal_action", (context.empty() ? "" : context + ": ") + why.message +
                                         (why.rule.empty() ? "" : " (" + why.rule + ")"));
    e.refusal = why;
    return e;
  }

  std::string code;  // parse_error, bad_request, unknown_command, no_game, illegal_action, ...
  nlohmann::json details;
  std::optional<env::Refusal> refusal;  // set for illegal_action
};

// Throws bad_request unless every key of the request is "cmd", "id" or one of `allowed`, so
// that a misspelt field never passes silently.
inline void expectKeys(const nlohmann::json& req, std::span<const char* const> allowed) {
  for (auto it = req.begin(); it != req.end(); ++it) {
    bool known = it.key() == "cmd" || it.key() == "id";
    for (const char* k : allowed) known = known || it.key() == k;
    if (!known) {
      throw RequestError{"bad_request", "unknown key \"" + it.key() + "\" for \"" +
                                            req.value("cmd", std::string()) + "\""};
    }
  }
}

}  // namespace morne::engine
