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
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "env/error.h"
#include "env/io/crc32.h"
#include "http/http_client.h"
#include "http/http_server.h"
#include "loop/loop_config.h"
#include "loop/remote_worker.h"
#include "loop/run_summary.h"
#include "loop/selfplay_worker.h"
#include "loop/worker_totals.h"

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

// A socket connected to 127.0.0.1:`port` from the loopback address `from` (127.0.0.N: another
// peer as the server counts them).
int connectFrom(const char* from, int port) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, from, &local.sin_addr);
  if (::bind(s, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(s);
    return -1;
  }
  return s;
}

// What the server answers to `request` sent on socket `s`, up to its end or `seconds`.
std::string askRaw(int s, const std::string& request, double seconds = 10) {
  if (::write(s, request.data(), request.size()) != static_cast<ssize_t>(request.size())) return "";
  timeval limit{static_cast<time_t>(seconds), 0};
  ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = ::read(s, buffer, sizeof buffer)) > 0;)
    answer.append(buffer, static_cast<size_t>(n));
  return answer;
}

// A second server of the run that takes bodies of at most `max_body_bytes`, for as long as it
// lives.
class SmallServer {
 public:
  SmallServer(const loop::RoleContext& run, const std::string& token, uint64_t max_body_bytes)
      : exchange_(run, token, max_body_bytes),
        server_(bounded(max_body_bytes), exchange_),
        thread_([this] { server_.run(stop_); }) {}
  ~SmallServer() {
    stop_ = true;
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server_.port()); }

 private:
  static http::HttpServerConfig bounded(uint64_t max_body_bytes) {
    http::HttpServerConfig c;
    c.max_body_bytes = max_body_bytes;
    return c;
  }

  loop::RunExchange exchange_;
  http::HttpServer server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

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

  // A remote worker r1 of the run served at `url`, in its own folder, for one game.
  loop::RemoteWorkerSettings remoteWorker(const std::string& url) const {
    loop::RemoteWorkerSettings s;
    s.url = url;
    s.token = token_;
    s.dir = (dir_ / "remote").string();
    s.name = "r1";
    s.max_games = 1;
    s.quiet = true;
    return s;
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

// A worker's totals are checked field by field before they are stored; totals damaged on disk
// leave `loop status` and the run's CPU time readable, saying so.
TEST_F(RunExchangeTest, TotalsAreCheckedBeforeTheyAreStored) {
  http::HttpClient client(url_, token_);
  http::HttpAnswer a = client.put("/v1/workers/evil", R"({"worker":"evil","cpu_seconds":"lots"})");
  EXPECT_EQ(a.status, 422) << a.body;
  a = client.put("/v1/workers/evil", "[1, 2]");
  EXPECT_EQ(a.status, 422) << a.body;
  EXPECT_FALSE(fs::exists(dir_ / "run/workers/evil.json"));
  loop::WorkerTotals totals;
  totals.worker = "good";
  totals.games = 3;
  a = client.put("/v1/workers/good",
                 env::optionsJson<loop::WorkerTotals>(loop::kWorkerTotalsRows, totals).dump());
  EXPECT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(loop::readWorkerTotals((dir_ / "run/workers/good.json").string())->games, 3);
  a = client.put("/v1/workers/other",
                 env::optionsJson<loop::WorkerTotals>(loop::kWorkerTotalsRows, totals).dump());
  EXPECT_EQ(a.status, 422) << a.body;  // the record of another worker
  json wrong = env::optionsJson<loop::WorkerTotals>(loop::kWorkerTotalsRows, totals);
  wrong["cpu_seconds"] = "lots";
  a = client.put("/v1/workers/good", wrong.dump());
  EXPECT_EQ(a.status, 422) << a.body;
  EXPECT_NE(a.body.find("\\\"cpu_seconds\\\" has the wrong type"), std::string::npos) << a.body;

  writeFile((dir_ / "run/workers/evil.json").string(), R"({"worker":"evil","cpu_seconds":"lots"})");
  EXPECT_NO_THROW(loop::runCpuSeconds(run_->folder));
  const std::string status = loop::loopStatus((dir_ / "run").string());
  EXPECT_NE(status.find("worker:     evil (stopped), totals damaged"), std::string::npos) << status;
  EXPECT_NE(status.find("worker:     good (stopped), 3 games"), std::string::npos) << status;
}

// Files are served only when they are regular files of their own folder: a link to the token
// or to a system file is not followed.
TEST_F(RunExchangeTest, LinksAreNotFollowed) {
  http::HttpClient client(url_, token_);
  fs::create_directories(dir_ / "run/nets");
  fs::create_symlink(dir_ / "run/token", dir_ / "run/nets/gen-009.pt");
  fs::create_symlink("/etc/passwd", dir_ / "run/nets/gen-008.pt");
  fs::create_directories(dir_ / "run/selfplay/gen-000");
  fs::create_symlink(dir_ / "run/token", dir_ / "run/selfplay/gen-000/w1-0.positions.json");
  EXPECT_EQ(client.get("/v1/nets/gen-009.pt").status, 404);
  EXPECT_EQ(client.get("/v1/nets/gen-008.pt").status, 404);
  EXPECT_EQ(client.get("/v1/archives/gen-000/w1-0.positions.json").status, 404);
  const http::HttpAnswer list = client.get("/v1/archives/gen-000");
  ASSERT_EQ(list.status, 200);
  EXPECT_TRUE(json::parse(list.body)["files"].empty()) << list.body;
  writeFile((dir_ / "run/nets/gen-007.pt").string(), "weights");
  EXPECT_EQ(client.get("/v1/nets/gen-007.pt").body, "weights");
  // A download longer than declared stops there, and nothing of it is kept.
  const std::string got = (dir_ / "got.pt").string();
  const http::HttpAnswer cut = client.getFile("/v1/nets/gen-007.pt", got, 3);
  EXPECT_EQ(cut.status, 0);
  EXPECT_FALSE(fs::exists(got));
  EXPECT_TRUE(client.getFile("/v1/nets/gen-007.pt", got, 7).ok());
  EXPECT_EQ(readFile(got), "weights");
}

// Position archives are checked as the workers read them: a document nested 200,000 levels
// deep, or positions that are no positions of the run's scenario, are refused.
TEST_F(RunExchangeTest, PositionArchivesAreCheckedAsWorkersReadThem) {
  http::HttpClient client(url_, token_);
  const std::string file = (dir_ / "archive.json").string();
  const auto send = [&](const std::string& bytes) {
    writeFile(file, bytes);
    return client.putFile("/v1/selfplay/gen-000/w1-0.positions.json", file,
                          {{"X-Morne-Crc32", crcText(bytes)}});
  };
  http::HttpAnswer a = send(std::string(200000, '[') + std::string(200000, ']'));
  EXPECT_EQ(a.status, 422) << a.body.substr(0, 300);
  EXPECT_NE(a.body.find("nested"), std::string::npos) << a.body.substr(0, 300);
  a = send(R"({"format":"morne-positions/1","scenario":"duel","positions":[{"turn":"x"}]})");
  EXPECT_EQ(a.status, 422) << a.body;
  a = send(R"({"format":"morne-positions/1","scenario":"crossing","positions":[{}]})");
  EXPECT_EQ(a.status, 422) << a.body;
  EXPECT_TRUE(filesOf("selfplay/gen-000").empty());
  a = send(R"({"format":"morne-positions/1","scenario":"duel","positions":[]})");
  EXPECT_EQ(a.status, 201) << a.body;
}

// A PUT with an empty body is answered at once; one with no body at all, 411.
TEST_F(RunExchangeTest, EmptyAndMissingBodiesAreAnsweredAtOnce) {
  const std::string head =
      "PUT /v1/selfplay/gen-000/w1-0-0000.h5 HTTP/1.1\r\nHost: x\r\n"
      "Authorization: Bearer " +
      token_ + "\r\nX-Morne-Crc32: 00000000\r\nConnection: close\r\n";
  int s = connectFrom("127.0.0.1", server_->port());
  ASSERT_GE(s, 0);
  auto t0 = std::chrono::steady_clock::now();
  std::string answer = askRaw(s, head + "Content-Length: 0\r\n\r\n");
  ::close(s);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5);
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 422")) << answer;
  s = connectFrom("127.0.0.1", server_->port());
  answer = askRaw(s, head + "\r\n");
  ::close(s);
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 411")) << answer;
  EXPECT_TRUE(filesOf("incoming").empty());
}

// Sockets without the token lock no worker out: a connection refused for its token is closed,
// and one peer's partial heads hold at most its own share of the connections.
TEST_F(RunExchangeTest, TokenlessSocketsLockNoWorkerOut) {
  // A keep-alive socket sending token-less requests: answered 401, then closed.
  int s = connectFrom("127.0.0.2", server_->port());
  ASSERT_GE(s, 0) << "127.0.0.2 cannot be bound here";
  const std::string answer = askRaw(s, "GET /v1/run HTTP/1.1\r\nHost: x\r\n\r\n");
  ::close(s);
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 401")) << answer;  // and read() saw the end
  // 64 partial heads from one peer.
  std::vector<int> held;
  for (int i = 0; i < 64; ++i) {
    const int c = connectFrom("127.0.0.2", server_->port());
    if (c < 0) continue;
    const std::string partial = "GET /v1/run HTTP/1.1\r\nHost:";
    if (::write(c, partial.data(), partial.size()) < 0) {
      ::close(c);
      continue;
    }
    held.push_back(c);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  http::HttpClient worker(url_, token_);
  EXPECT_EQ(worker.get("/v1/run").status, 200);
  EXPECT_GE(server_->counters().connections_refused, 64u - 16u);
  for (const int c : held) ::close(c);
}

// An upload over the server's bound is answered 413 (it used to be cut without an answer, and
// the worker sent it again forever), and /v1/run tells workers the bound.
TEST_F(RunExchangeTest, AnUploadOverTheBoundIsAnswered413) {
  const SmallServer small(*run_, token_, 1000);
  http::HttpClient client(small.url(), token_);
  EXPECT_EQ(json::parse(client.get("/v1/run").body)["max_upload_bytes"], 1000);
  const http::HttpAnswer a = put(client, shard_, "w1-0-0000.h5", crcText(readFile(shard_)));
  EXPECT_EQ(a.status, 413) << a.problem;
  EXPECT_TRUE(filesOf("selfplay/gen-000").empty());
}

// A remote worker runs no program its server names: a loop.json whose bootstrap agent is an
// `ext:` program is refused unless the worker's own command line allows programs.
TEST_F(RunExchangeTest, ARemoteWorkerRunsNoProgramTheServerNames) {
  loop::LoopConfig c = config_;
  const fs::path pwned = dir_ / "pwned";
  c.loop.bootstrap = "ext:cmd=/usr/bin/touch " + pwned.string();
  loop::writeLoopRecord((dir_ / "run").string(), c);
  const loop::RemoteWorkerSettings s = remoteWorker(url_);
  try {
    loop::runRemoteWorker(s);
    FAIL() << "a run naming a program was played";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--allow-programs"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(pwned));
}

// A finished shard larger than the server takes is kept aside by the worker, which says so,
// instead of being sent again and again.
TEST_F(RunExchangeTest, ARemoteWorkerKeepsAsideWhatTheServerWillNotTake) {
  {
    const SmallServer small(*run_, token_, 2000);
    EXPECT_EQ(loop::runRemoteWorker(remoteWorker(small.url())), 1);
  }
  std::vector<std::string> aside;
  for (const auto& e : fs::directory_iterator(dir_ / "remote/selfplay/gen-000"))
    if (e.path().extension() == ".refused") aside.push_back(e.path().filename().string());
  EXPECT_EQ(aside.size(), 1u);
  EXPECT_TRUE(filesOf("selfplay/gen-000").empty());
  const std::string log = readFile((dir_ / "remote/log.txt").string());
  EXPECT_NE(log.find("more than the 2000 the server takes"), std::string::npos) << log;
}

// A remote worker started again after a kill recovers its journals and says so, on its output
// and in its log: an intact one becomes a shard, a damaged one is kept as .damaged.
TEST_F(RunExchangeTest, ARemoteWorkerReportsTheJournalsItRecovers) {
  const fs::path set = dir_ / "remote/selfplay/gen-000";
  fs::create_directories(set);
  writeFile((set / "r1-0-0000.h5.journal").string(), std::string(300, '\0'));
  const loop::RemoteWorkerSettings s = remoteWorker(url_);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  EXPECT_EQ(loop::runRemoteWorker(s), 1);
  const std::string output =
      testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  const std::string log = readFile((dir_ / "remote/log.txt").string());
  EXPECT_TRUE(fs::exists(set / "r1-0-0000.h5.journal.damaged"));
  EXPECT_NE(output.find("r1-0-0000.h5.journal"), std::string::npos) << output;
  EXPECT_NE(log.find("r1-0-0000.h5.journal"), std::string::npos) << log;
}

}  // namespace
}  // namespace morne::test
