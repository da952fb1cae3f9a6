#pragma once
// A test client of the engine protocol: sends requests to an EngineSession, parses replies.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "engine/session.h"

namespace morne::test {

class SessionClient {
 public:
  nlohmann::json send(const nlohmann::json& request) { return sendRaw(request.dump()); }
  // One protocol line as typed, which need not be valid JSON.
  nlohmann::json sendRaw(const std::string& line) {
    const std::string reply = session_.handle(line, &quit);
    last_reply_bytes = reply.size();
    return nlohmann::json::parse(reply);
  }
  // A request expected to succeed; fails the test otherwise and returns the reply.
  nlohmann::json ok(const nlohmann::json& request) {
    nlohmann::json reply = send(request);
    EXPECT_TRUE(reply.value("ok", false)) << request.dump() << " -> " << reply.dump();
    return reply;
  }
  // Whether the session still answers a request.
  bool alive() { return send({{"cmd", "protocol"}})["ok"].get<bool>(); }
  engine::EngineSession session_{1};
  bool quit = false;            // set once the session was told to quit
  size_t last_reply_bytes = 0;  // the size of the last reply's text
};

// The error code of a reply ("" when it succeeded).
inline std::string errorCode(const nlohmann::json& reply) {
  return reply.value("ok", true) ? "" : reply["error"]["code"].get<std::string>();
}

}  // namespace morne::test
