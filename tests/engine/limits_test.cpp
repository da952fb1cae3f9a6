// The engine protocol under hostile input: regressions for requests that crashed the engine,
// blocked it, made it answer internal_error, or made it grow without bound. Each request gets
// one precise error and the session keeps serving.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engine/session.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/rng.h"
#include "env/rules.h"
#include "tests/engine/session_client.h"
#include "tests/training/temp_dir.h"

namespace morne::test {
namespace {

using nlohmann::json;

using Session = SessionClient;

std::string message(const json& reply) {
  return reply.value("ok", true) ? "" : reply["error"]["message"].get<std::string>();
}

std::string nested(size_t depth, const std::string& inner = "1") {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

// A request id or an inline scenario nested ~60,000 levels deep overflowed the stack of the
// JSON serializer (SIGSEGV).
TEST(EngineLimits, DeeplyNestedJsonIsRefused) {
  Session s;
  const json by_id = s.sendRaw(R"({"cmd":"protocol","id":)" + nested(60000) + "}");
  EXPECT_EQ(errorCode(by_id), "bad_request");
  EXPECT_NE(message(by_id).find("nested 60001 levels deep; at most 64"), std::string::npos)
      << message(by_id);
  const json by_load = s.sendRaw(R"({"cmd":"load","json":{"map":)" + nested(60000) + "}}");
  EXPECT_EQ(errorCode(by_load), "bad_request");
  // Brackets inside strings do not count.
  EXPECT_TRUE(s.send({{"cmd", "protocol"}, {"id", std::string(100000, '[')}})["ok"]);
  EXPECT_TRUE(s.alive());
}

TEST(EngineLimits, OverlongLinesAreRefusedAndSkipped) {
  Session s;
  const std::string huge =
      R"({"cmd":"protocol","id":")" + std::string(engine::kMaxRequestBytes, 'x') + R"("})";
  EXPECT_EQ(errorCode(s.sendRaw(huge)), "bad_request");

  // The reader keeps at most one byte past the limit and goes on with the next line.
  std::istringstream in(huge + "\n" + R"({"cmd":"protocol"})" + "\r\n");
  std::string line;
  ASSERT_TRUE(engine::readRequestLine(in, line));
  EXPECT_EQ(line.size(), engine::kMaxRequestBytes + 1);
  ASSERT_TRUE(engine::readRequestLine(in, line));
  EXPECT_EQ(line, R"({"cmd":"protocol"})");
  EXPECT_FALSE(engine::readRequestLine(in, line));
}

// An index of 2^32 + 50 applied index 50; 1e999 answered internal_error.
TEST(EngineLimits, NumbersAreNeverTruncated) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}})["ok"]);
  const json before = s.send({{"cmd", "state"}});
  for (const char* index : {"4294967346", "-4294967246", "18446744073709551615", "1e999", "50.0"}) {
    const json r = s.sendRaw(std::string(R"({"cmd":"apply","index":)") + index + "}");
    EXPECT_EQ(errorCode(r), "bad_request") << index << ": " << r.dump();
  }
  EXPECT_EQ(s.send({{"cmd", "state"}}), before) << "nothing was applied";
  EXPECT_EQ(errorCode(s.sendRaw(R"({"cmd":"apply","outcome":4294967297})")), "bad_request")
      << "an outcome beyond any die";
}

TEST(EngineLimits, FileNamesThatCannotBeOpened) {
  Session s;
  const json long_name = s.send({{"cmd", "load"}, {"scenario", std::string(300, 'a')}});
  EXPECT_EQ(errorCode(long_name), "invalid_input");
  EXPECT_NE(message(long_name).find("File name too long"), std::string::npos) << long_name;
  const json nul = s.send({{"cmd", "load"}, {"path", std::string("duel\0x", 6)}});
  EXPECT_EQ(errorCode(nul), "bad_request");
  EXPECT_NE(message(nul).find("NUL"), std::string::npos);
  const json folder = s.send({{"cmd", "load"}, {"path", "."}});
  EXPECT_NE(message(folder).find("it is a folder"), std::string::npos) << folder;
  EXPECT_TRUE(s.alive());
}

class EngineLimitsFiles : public TempDirTest {};

// Loading a FIFO blocked the engine for good.
TEST_F(EngineLimitsFiles, AFifoIsRefusedWithoutBlocking) {
  std::filesystem::create_directories(dir_);
  const std::string fifo = (dir_ / "pipe.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Session s;
  const json r = s.send({{"cmd", "load"}, {"path", fifo}});
  EXPECT_EQ(errorCode(r), "invalid_input");
  EXPECT_NE(message(r).find("not an ordinary file"), std::string::npos) << r;
}

// A server's sessions read no file: an agent's model= is the name of a shipped model, never a
// path; "models" lists the shipped ones.
TEST_F(EngineLimitsFiles, AServerLoadsShippedModelsByNameOnly) {
  std::filesystem::create_directories(dir_);
  std::ofstream(dir_ / "tiny.pt") << "not a network";
  ::setenv("MORNE_MODELS", dir_.c_str(), 1);
  engine::SessionLimits limits;
  limits.files = false;
  engine::EngineSession session(1, {}, limits);
  bool quit = false;
  const auto send = [&](const json& request) {
    return json::parse(session.handle(request.dump(), &quit));
  };
  const json models = send({{"cmd", "models"}});
  ASSERT_TRUE(models.value("ok", false)) << models;
  EXPECT_EQ(models["models"], json::array({{{"name", "tiny"}}})) << models;
  ASSERT_TRUE(send({{"cmd", "load"}, {"scenario", "duel"}}).value("ok", false));
  for (const std::string& path : {(dir_ / "tiny.pt").string(), std::string("../x.pt")}) {
    const json r = send({{"cmd", "genmove"}, {"agent", "az:sims=2,model=" + path}});
    EXPECT_EQ(errorCode(r), "bad_request") << r;
    EXPECT_NE(message(r).find("reads no files"), std::string::npos) << r;
  }
  const json named = send({{"cmd", "genmove"}, {"agent", "az:sims=2,model=tiny"}});
  EXPECT_EQ(message(named).find("reads no files"), std::string::npos) << named;  // looked up
  ::unsetenv("MORNE_MODELS");
  // Nor does it run programs: an external agent would run any command a client names.
  for (const char* cmd : {"genmove", "analyze"}) {
    const json ext = send({{"cmd", cmd}, {"agent", "ext:cmd=touch " + (dir_ / "ran").string()}});
    EXPECT_EQ(errorCode(ext), "bad_request") << ext;
    EXPECT_NE(message(ext).find("this server runs no programs"), std::string::npos) << ext;
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "ran"));
}

// A 3 MB token came back whole in the error message.
TEST(EngineLimits, ErrorsDoNotEchoLargeInput) {
  Session s;
  s.sendRaw("{\"cmd\":\"protocol\",\"id\":" + std::string(3'000'000, 'z') + "}");
  EXPECT_LT(s.last_reply_bytes, 4000u);
  s.send({{"cmd", std::string(3'000'000, 'q')}});
  EXPECT_LT(s.last_reply_bytes, 4000u);
  const json long_id = s.send({{"cmd", "protocol"}, {"id", std::string(3'000'000, 'i')}});
  EXPECT_LT(s.last_reply_bytes, 4000u);
  EXPECT_TRUE(long_id["ok"]);
}

// Every distinct genmove spec kept an agent and its tree until the next load.
TEST(EngineLimits, GenmoveKeepsABoundedNumberOfAgents) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}})["ok"]);
  for (int k = 1; k <= 30; ++k) {
    const json r = s.send(
        {{"cmd", "genmove"}, {"agent", "mcts:sims=5,cpuct=" + std::to_string(1 + k / 10.0)}});
    ASSERT_TRUE(r["ok"]) << r;
    EXPECT_LE(s.session_.keptAgents(), engine::kMaxKeptAgents);
  }
  EXPECT_EQ(s.session_.keptAgents(), engine::kMaxKeptAgents);
  EXPECT_EQ(errorCode(s.send({{"cmd", "genmove"}, {"agent", "mcts:sims=0"}})), "invalid_input");
  EXPECT_EQ(s.session_.keptAgents(), engine::kMaxKeptAgents) << "a bad spec keeps nothing";
}

// Lines that are not JSON: a bare word gets the list of commands; an empty or blank line (as a
// client may send between requests) is a parse error, never an internal one (found by
// fuzzing: blank-line-before-request.bin in the protocol corpus).
TEST(EngineLimits, LinesThatAreNotJson) {
  Session s;
  for (const char* line : {"", "   ", "\t", "help", "quit now", "{\"cmd\""}) {
    const json r = s.sendRaw(line);
    EXPECT_EQ(errorCode(r), "parse_error") << "[" << line << "] " << r;
  }
  EXPECT_NE(message(s.sendRaw(" legal ")).find("commands: protocol, load"), std::string::npos);
  EXPECT_TRUE(s.alive());
}

// Issue 25: an integer id below the 64-bit range came back rounded (-9.223372036854776e+18),
// and trailing NUL bytes after a request were accepted while trailing text was refused.
TEST(EngineLimits, IdsComeBackExactlyOrAreRefused) {
  Session s;
  const json big = s.sendRaw(R"({"cmd":"protocol","id":-9223372036854775809})");
  EXPECT_EQ(errorCode(big), "bad_request") << big;
  EXPECT_NE(message(big).find("64-bit"), std::string::npos) << big;
  EXPECT_FALSE(big.contains("id")) << "no rounded id is echoed";
  for (const char* line :
       {R"({"cmd":"protocol","id":-9223372036854775808})",
        R"({"cmd":"protocol","id":18446744073709551615})", R"({"cmd":"protocol","id":1.5})"}) {
    const std::string reply = s.session_.handle(line, &s.quit);
    const std::string given = json::parse(line)["id"].dump();
    EXPECT_NE(reply.find("\"id\":" + given), std::string::npos) << line << " -> " << reply;
  }
  const json nul = s.sendRaw(std::string(R"({"cmd":"protocol"})") + std::string(3, '\0'));
  EXPECT_EQ(errorCode(nul), "parse_error") << nul;
  EXPECT_NE(message(nul).find("NUL byte at byte 18"), std::string::npos) << nul;
  EXPECT_EQ(errorCode(s.sendRaw(R"({"cmd":"protocol"} x)")), "parse_error");
  EXPECT_TRUE(s.alive());
}

// A spec that changes only the budget (sims, ms, turn_ms) reuses the kept agent and its tree.
TEST(EngineLimits, ChangingTheBudgetKeepsTheSearchTree) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}})["ok"]);
  const json first = s.send({{"cmd", "genmove"}, {"agent", "mcts:sims=200"}});
  ASSERT_TRUE(first["ok"]) << first;
  const json second = s.send({{"cmd", "genmove"}, {"agent", "mcts:sims=50"}});
  ASSERT_TRUE(second["ok"]) << second;
  EXPECT_EQ(second["agent"].get<std::string>().rfind("mcts:sims=50,", 0), 0u) << second["agent"];
  EXPECT_GT(second["nodes"].get<int>(), first["nodes"].get<int>()) << "the tree was rebuilt";
  const json timed = s.send({{"cmd", "genmove"}, {"agent", "mcts:ms=20"}});
  ASSERT_TRUE(timed["ok"]) << timed;
  EXPECT_GT(timed["nodes"].get<int>(), second["nodes"].get<int>());
  EXPECT_EQ(s.session_.keptAgents(), 1u);
  EXPECT_EQ(errorCode(s.send({{"cmd", "genmove"}, {"agent", "mcts:ms=20,turn_ms=100"}})),
            "invalid_input");
  EXPECT_EQ(errorCode(s.send({{"cmd", "genmove"}, {"agent", "rule:ms=20"}})), "invalid_input");
}

// genmove on a finished game answers game_over, a code of the documented table.
TEST(EngineLimits, GenmoveOnAFinishedGame) {
  const auto sc = env::loadScenario("duel");
  env::GameState end = env::newGame(*sc);
  env::Rng rng(3);
  env::ActionList scratch;
  while (!end.isTerminal()) env::playRandomPly(end, rng, scratch);
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}})["ok"]);
  ASSERT_TRUE(s.send({{"cmd", "set_state"}, {"state", env::stateToJson(end)}})["ok"]);
  EXPECT_EQ(errorCode(s.send({{"cmd", "genmove"}, {"agent", "rule"}})), "game_over");
  EXPECT_EQ(errorCode(s.send({{"cmd", "apply"}, {"text", "end"}})), "illegal_action");
}

}  // namespace
}  // namespace morne::test
