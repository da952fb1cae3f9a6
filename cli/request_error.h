#pragma once
// Internal to the engine protocol: a request that cannot be served. EngineSession turns it
// into {"ok": false, "error": {"code": ..., "message": ..., "details": ...}}.

#include <nlohmann/json.hpp>
#include <string>

namespace morne::cli {

struct RequestError {
  std::string code;     // parse_error, bad_request, unknown_command, no_game, illegal_action, ...
  std::string message;  // one precise sentence for the user
  nlohmann::json details = nullptr;
};

}  // namespace morne::cli
