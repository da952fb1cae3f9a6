#pragma once
// Internal to the engine protocol: a request that cannot be served. EngineSession turns it
// into {"ok": false, "error": {"code": ..., "message": ..., "details": ...}}.

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "env/error.h"

namespace morne::cli {

// what() is one precise sentence for the user.
class RequestError : public Error {
 public:
  RequestError(std::string error_code, const std::string& message,
               nlohmann::json error_details = nullptr)
      : Error(message), code(std::move(error_code)), details(std::move(error_details)) {}

  std::string code;  // parse_error, bad_request, unknown_command, no_game, illegal_action, ...
  nlohmann::json details;
};

// Throws bad_request unless every key of the request is "cmd", "id" or one of `allowed`, so
// that a misspelt field never passes silently.
inline void expectKeys(const nlohmann::json& req, std::initializer_list<const char*> allowed) {
  for (auto it = req.begin(); it != req.end(); ++it) {
    bool known = it.key() == "cmd" || it.key() == "id";
    for (const char* k : allowed) known = known || it.key() == k;
    if (!known) {
      throw RequestError{"bad_request", "unknown key \"" + it.key() + "\" for \"" +
                                            req.value("cmd", std::string()) + "\""};
    }
  }
}

}  // namespace morne::cli
