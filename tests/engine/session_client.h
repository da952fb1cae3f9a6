#pragma once
// A test client of the engine protocol: sends requests to an EngineSession, parses replies.

#include <nlohmann/json.hpp>
#include <string>

#include "engine/session.h"

namespace morne::test {

class SessionClient {
 public:
  nlohmann::json send(const nlohmann::json& request) {
    return nlohmann::json::parse(session_.handle(request.dump(), &quit_));
  }
  // A request expected to succeed; fails the test otherwise and returns the reply.
  nlohmann::json ok(const nlohmann::json& request) {
    nlohmann::json reply = send(request);
    EXPECT_TRUE(reply.value("ok", false)) << request.dump() << " -> " << reply.dump();
    return reply;
  }
  // The error code of a reply ("" when it succeeded).
  static std::string errorCode(const nlohmann::json& reply) {
    return reply.value("ok", true) ? "" : reply["error"]["code"].get<std::string>();
  }

 private:
  engine::EngineSession session_{1};
  bool quit_ = false;
};

}  // namespace morne::test
