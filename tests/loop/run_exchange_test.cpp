// The run folder over HTTP (loop/run_exchange.h) in-process: `morne loop serve`'s answers to a
// client with and without the run's token, uploads checked before the learner can see them
// (a wrong CRC-32, a damaged shard, a body cut short, a name the folder holds with other bytes,
// paths outside the run), and what a worker fetches.

#include "loop/run_exchange.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "env/error.h"
#include "env/io/crc32.h"
#include "http/http_client.h"
#include "http/http_server.h"
#include "loop/learning_loop.h"
#include "loop/selfplay_worker.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

loop::LoopConfig tinyRun() {
  loop::LoopConfig c;
  c.loop.scenario = "duel";
  c.loop.generations = 1;
  c.loop.bootstrap = "random";
  c.loop.jobs = 1;
  return c;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string crcText(const std::string& bytes) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", env::crc32Of(bytes));
  return text;
}

class RunExchangeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("morne_exchange_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "run");
    fs::create_directories(dir_ / "player");
    loop::writeLoopRecord((dir_ / "run").string(), config_);
    loop::writeLoopRecord((dir_ / "player").string(), config_);
    run_.emplace(loop::openRun(config_, (dir_ / "run").string(), true, nullptr));
    // Two finished shards of a worker w1 in a folder of its own.
    player_.emplace(loop::openRun(config_, (dir_ / "player").string(), true, nullptr));
    loop::SelfplayWorker worker(*player_, "w1", 1);
    ASSERT_EQ(worker.playChunk(2), 2);
    ASSERT_EQ(worker.playChunk(2), 2);
    shard_ = (dir_ / "player/selfplay/gen-000/w1-0-0000.h5").string();
    other_ = (dir_ / "player/selfplay/gen-000/w1-1-0000.h5").string();
    ASSERT_TRUE(fs::exists(shard_) && fs::exists(other_));

    token_ = loop::runToken(run_->folder);
    exchange_.emplace(*run_, token_);
    server_.emplace(http::HttpServerConfig{}, *exchange_);
    thread_ = std::thread([this] { server_->run(stop_); });
    url_ = "http://127.0.0.1:" + std::to_string(server_->port());
  }

  void TearDown() override {
    stop_ = true;
    thread_.join();
    fs::remove_all(dir_);
  }

  // The files of the run's data set 0 and of its incoming/ folder.
  std::vector<std::string> filesOf(const std::string& sub) const {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_ / "run" / sub, ec))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  http::HttpAnswer put(http::HttpClient& client, const std::string& file, const std::string& as,
                       const std::string& crc) {
    return client.putFile("/v1/selfplay/gen-000/" + as, file, {{"X-Morne-Crc32", crc}});
  }

  loop::LoopConfig config_ = tinyRun();
  fs::path dir_;
  std::optional<loop::RoleContext> run_, player_;
  std::string shard_, other_, token_, url_;
  std::optional<loop::RunExchange> exchange_;
  std::optional<http::HttpServer> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST_F(RunExchangeTest, WithoutTheTokenNothingIsAnsweredOrStored) {
  EXPECT_EQ(token_.size(), 64u);
  EXPECT_EQ(fs::status(dir_ / "run/token").permissions() & fs::perms::others_read, fs::perms::none);
  http::HttpClient stranger(url_, "not-the-token");
  EXPECT_EQ(stranger.get("/v1/run").status, 401);
  EXPECT_EQ(stranger.get("/v1/latest").status, 401);
  EXPECT_EQ(put(stranger, shard_, "w1-0-0000.h5", crcText(readFile(shard_))).status, 401);
  EXPECT_TRUE(filesOf("selfplay/gen-000").empty());
  EXPECT_EQ(exchange_->counters().refused_token, 3u);

  http::HttpClient worker(url_, token_);
  const http::HttpAnswer run = worker.get("/v1/run");
  ASSERT_EQ(run.status, 200) << run.body;
  const json j = json::parse(run.body);
  EXPECT_EQ(j["run"], "run");
  EXPECT_EQ(j["loop"]["loop"]["scenario"], "duel");
  EXPECT_FALSE(j["scenario"].get<std::string>().empty());
  EXPECT_EQ(loop::parseLatest(worker.get("/v1/latest").body, "latest").data_set, 0);
}

TEST_F(RunExchangeTest, AnUploadIsCheckedThenAppearsWholeOnce) {
  http::HttpClient client(url_, token_);
  const std::string bytes = readFile(shard_);
  // Damaged on the way: its CRC-32 is not the one sent.
  http::HttpAnswer a = put(client, shard_, "w1-0-0000.h5", crcText(bytes + "x"));
  EXPECT_EQ(a.status, 422) << a.body;
  EXPECT_NE(a.body.find("damaged on the way"), std::string::npos) << a.body;
  // Damaged before it was sent: the CRC-32 matches, the shard cannot be read.
  std::string broken = bytes;
  for (size_t i = broken.size() / 3; i < broken.size() / 3 + 4096; ++i) broken[i] = '\x5a';
  const std::string broken_file = (dir_ / "broken.h5").string();
  writeFile(broken_file, broken);
  a = put(client, broken_file, "w1-0-0000.h5", crcText(broken));
  EXPECT_EQ(a.status, 422) << a.body;
  EXPECT_NE(a.body.find("not a readable shard"), std::string::npos) << a.body;
  EXPECT_TRUE(filesOf("selfplay/gen-000").empty());
  EXPECT_TRUE(filesOf("incoming").empty());

  a = put(client, shard_, "w1-0-0000.h5", crcText(bytes));
  EXPECT_EQ(a.status, 201) << a.body;
  EXPECT_EQ(filesOf("selfplay/gen-000"), std::vector<std::string>{"w1-0-0000.h5"});
  EXPECT_EQ(readFile((dir_ / "run/selfplay/gen-000/w1-0-0000.h5").string()), bytes);
  EXPECT_EQ(run_->folder.gamesIn(0), 2);
  // Sent again (the worker was killed before it heard the answer): stored already.
  a = put(client, shard_, "w1-0-0000.h5", crcText(bytes));
  EXPECT_EQ(a.status, 200) << a.body;
  // Other bytes under that name: refused, the folder's file kept.
  a = put(client, other_, "w1-0-0000.h5", crcText(readFile(other_)));
  EXPECT_EQ(a.status, 409) << a.body;
  EXPECT_EQ(readFile((dir_ / "run/selfplay/gen-000/w1-0-0000.h5").string()), bytes);
  EXPECT_TRUE(filesOf("incoming").empty());
  const loop::ExchangeCounters c = exchange_->counters();
  EXPECT_EQ(c.stored, 1u);
  EXPECT_EQ(c.repeated, 1u);
  EXPECT_EQ(c.refused, 3u);
  // The worker's next chunk comes after the one the run holds.
  EXPECT_EQ(json::parse(client.get("/v1/workers/w1").body)["next_chunk"], 1);
  EXPECT_EQ(json::parse(client.get("/v1/workers/w2").body)["next_chunk"], 0);
}

TEST_F(RunExchangeTest, ABodyCutShortLeavesNothingBehind) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(server_->port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const std::string head =
      "PUT /v1/selfplay/gen-000/w1-0-0000.h5 HTTP/1.1\r\nHost: x\r\n"
      "Authorization: Bearer " +
      token_ + "\r\nX-Morne-Crc32: 01234567\r\nContent-Length: 100000\r\n\r\n";
  const std::string sent = head + std::string(5000, 'a');
  ASSERT_EQ(::write(s, sent.data(), sent.size()), static_cast<ssize_t>(sent.size()));
  for (int i = 0; i < 500 && filesOf("incoming").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(filesOf("incoming").size(), 1u);  // the body as it comes, out of the learner's sight
  EXPECT_TRUE(filesOf("selfplay/gen-000").empty());
  ::close(s);  // the worker dies mid-upload
  for (int i = 0; i < 500 && server_->counters().bodies_lost == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(server_->counters().bodies_lost, 1u);
  EXPECT_TRUE(filesOf("incoming").empty());
  EXPECT_TRUE(filesOf("selfplay/gen-000").empty());
  // Sent again, whole.
  http::HttpClient client(url_, token_);
  EXPECT_EQ(put(client, shard_, "w1-0-0000.h5", crcText(readFile(shard_))).status, 201);
}

TEST_F(RunExchangeTest, OnlyTheRunsOwnFilesAreServedOrWritten) {
  http::HttpClient client(url_, token_);
  const std::string crc = crcText(readFile(shard_));
  for (const char* target :
       {"/v1/nets/../loop.json", "/v1/archives/gen-000/../../token", "/v1/token",
        "/v1/nets/gen-001.pt", "/v1//latest", "/latest", "/v1/archives/gen-000/x.json"}) {
    EXPECT_EQ(client.get(target).status, 404) << target;
  }
  for (const char* target :
       {"/v1/selfplay/gen-000/../../token", "/v1/selfplay/gen-000/w1-0-0000.txt",
        "/v1/selfplay/gen-000/latest.json", "/v1/nets/gen-001.pt", "/v1/selfplay/x/w1-0-0000.h5"}) {
    EXPECT_EQ(client.putFile(target, shard_, {{"X-Morne-Crc32", crc}}).status, 404) << target;
  }
  // A data set not played yet, an upload without its CRC-32, one too long.
  EXPECT_EQ(
      client.putFile("/v1/selfplay/gen-003/w1-0-0000.h5", shard_, {{"X-Morne-Crc32", crc}}).status,
      409);
  EXPECT_EQ(client.putFile("/v1/selfplay/gen-000/w1-0-0000.h5", shard_, {}).status, 400);
  EXPECT_TRUE(filesOf("selfplay/gen-000").empty());
  EXPECT_FALSE(fs::exists(dir_ / "run/selfplay/gen-003"));
  // A damaged latest.json: the requests that need it are answered with the reason, the server
  // goes on.
  writeFile((dir_ / "run/latest.json").string(), "{\"format\": 7");
  http::HttpAnswer a = client.get("/v1/latest");
  EXPECT_EQ(a.status, 500);
  EXPECT_NE(a.body.find("latest.json: damaged"), std::string::npos) << a.body;
  a = client.putFile("/v1/selfplay/gen-000/w1-0-0000.h5", shard_, {{"X-Morne-Crc32", crc}});
  EXPECT_EQ(a.status, 500);
  EXPECT_NE(a.body.find("latest.json: damaged"), std::string::npos) << a.body;
  EXPECT_EQ(client.get("/v1/run").status, 200);
}

TEST(HttpClient, RefusesWhatIsNotAPlainHttpAddress) {
  for (const char* url : {"https://host:1", "host:1", "http://host", "http://host:1/path",
                          "http://:1", "http://host:x"}) {
    EXPECT_THROW(http::HttpClient(url, "t"), ConfigError) << url;
  }
  http::HttpClient nobody("http://127.0.0.1:1", "t", 5);
  const http::HttpAnswer a = nobody.get("/v1/run");
  EXPECT_EQ(a.status, 0);
  EXPECT_FALSE(a.problem.empty());
}

}  // namespace
}  // namespace morne::test
