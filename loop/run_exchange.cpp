#include "loop/run_exchange.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>

#include "env/error.h"
#include "env/io/crc32.h"
#include "env/io/durable_file.h"
#include "env/io/text_file.h"
#include "loop/selfplay_worker.h"
#include "loop/worker_totals.h"
#include "training/position_archive.h"
#include "training/training_data.h"

namespace morne::loop {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kRemoteFormat = "morne-remote/1";
// The largest totals record a worker may send.
constexpr uint64_t kMaxTotalsBytes = 64 * 1024;
// The largest position archive (one position of about 2 KB per game; the check reads it whole).
constexpr uint64_t kMaxArchiveBytes = uint64_t{64} << 20;

const std::regex kWorkerName("[A-Za-z0-9_][A-Za-z0-9._-]{0,63}");
const std::regex kDataSet("gen-([0-9]{3,6})");
// A worker's finished files: NAME-K-SSSS.h5 and NAME-K.positions.json.
const std::regex kUploadName(
    "([A-Za-z0-9_][A-Za-z0-9._-]{0,63})-[0-9]{1,12}(-[0-9]{4,6}\\.h5|\\.positions\\.json)");
const std::regex kNetworkName("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}\\.pt");

http::HttpReply reply(int status, const json& body) {
  return {status, "application/json",
          body.dump(-1, ' ', false, json::error_handler_t::replace) + "\n", ""};
}

http::HttpReply refuse(int status, const std::string& message) {
  return reply(status, json{{"error", message}});
}

bool sameToken(const std::string& given, const std::string& token) {
  if (given.size() != token.size()) return false;
  unsigned char diff = 0;  // every byte compared: the time does not tell how much matched
  for (size_t i = 0; i < token.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ token[i]);
  return diff == 0;
}

// "/v1/a/b" -> {"a", "b"}; empty parts, "." and ".." make it no path at all.
std::vector<std::string> pathParts(const std::string& target) {
  std::vector<std::string> parts;
  if (!target.starts_with("/v1/") || target.find_first_of("?#%\\") != std::string::npos) return {};
  size_t at = 4;
  while (at <= target.size()) {
    size_t end = target.find('/', at);
    if (end == std::string::npos) end = target.size();
    std::string part = target.substr(at, end - at);
    if (part.empty() || part == "." || part == "..") return {};
    parts.push_back(std::move(part));
    at = end + 1;
  }
  return parts;
}

std::string fileCrcText(const std::string& path) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", env::crc32OfFile(path));
  return text;
}

// The file `dir`/`name` when it is a regular file there: not a symbolic link, and in no other
// folder once resolved (the token and the system's files are never served through a link).
std::optional<std::string> servedFile(const std::string& dir, const std::string& name) {
  std::error_code ec;
  const fs::path file = fs::path(dir) / name;
  if (!fs::is_regular_file(fs::symlink_status(file, ec))) return std::nullopt;
  const fs::path folder = fs::canonical(dir, ec);
  if (ec || fs::canonical(file, ec).parent_path() != folder || ec) return std::nullopt;
  return file.string();
}

}  // namespace

std::string readTokenFile(const std::string& path) {
  std::ifstream in(path);
  std::string token;
  if (!in || !std::getline(in, token)) throw ConfigError(path + ": cannot read the token");
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
  if (token.empty()) throw ConfigError(path + ": the token is empty");
  return token;
}

std::string runToken(const RunFolder& folder) {
  const std::string path = folder.path("token");
  if (fs::exists(path)) return readTokenFile(path);
  std::ifstream random("/dev/urandom", std::ios::binary);
  unsigned char bytes[32];
  if (!random.read(reinterpret_cast<char*>(bytes), sizeof bytes))
    throw IoError("cannot read /dev/urandom for the run's token");
  std::string token;
  for (const unsigned char b : bytes) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", b);
    token += hex;
  }
  const mode_t old = ::umask(077);  // the token file is its owner's alone
  env::writeFileDurably(path, token + "\n");
  ::umask(old);
  ::chmod(path.c_str(), 0600);
  return token;
}

RunExchange::RunExchange(const RoleContext& run, std::string token, uint64_t max_upload_bytes)
    : run_(run), token_(std::move(token)), max_upload_bytes_(max_upload_bytes) {}

ExchangeCounters RunExchange::counters() const {
  std::lock_guard lock(mutex_);
  return counters_;
}

void RunExchange::count(uint64_t ExchangeCounters::*counter) {
  std::lock_guard lock(mutex_);
  ++(counters_.*counter);
}

std::string RunExchange::bodyFile(const http::HttpRequest& head, http::HttpReply& refusal) {
  if (!sameToken(head.header("authorization"), "Bearer " + token_)) {
    count(&ExchangeCounters::refused_token);
    refusal = refuse(401, "this run's token is needed (Authorization: Bearer TOKEN)");
    return "";
  }
  const std::vector<std::string> parts = pathParts(head.target);
  const bool shard = head.method == "PUT" && parts.size() == 3 && parts[0] == "selfplay" &&
                     std::regex_match(parts[1], kDataSet) &&
                     std::regex_match(parts[2], kUploadName);
  const bool totals = head.method == "PUT" && parts.size() == 2 && parts[0] == "workers" &&
                      std::regex_match(parts[1], kWorkerName);
  if (!shard && !totals) {
    refusal =
        refuse(404, head.method + " " + head.target.substr(0, 200) + ": nothing to send here");
    return "";
  }
  if (totals && head.body_bytes > kMaxTotalsBytes) {
    refusal = refuse(413, "a worker's totals are at most 64 KiB");
    return "";
  }
  if (shard && parts[2].ends_with(training::kPositionsSuffix) &&
      head.body_bytes > kMaxArchiveBytes) {
    refusal = refuse(413, "a position archive is at most 64 MiB");
    return "";
  }
  if (shard) {
    const std::string crc = head.header("x-morne-crc32");
    if (crc.size() != 8 || crc.find_first_not_of("0123456789abcdef") != std::string::npos) {
      refusal = refuse(400, "an upload needs X-Morne-Crc32: its CRC-32 as 8 lower-case hex digits");
      return "";
    }
    const int g = std::stoi(parts[1].substr(4));
    const int playing = run_.folder.readLatest().data_set;
    if (g > playing) {
      refusal = refuse(
          409, parts[1] + " is not played yet (the run plays " + generationName(playing) + ")");
      return "";
    }
  }
  fs::create_directories(run_.folder.path("incoming"));
  return run_.folder.path("incoming/" + std::to_string(next_upload_++) + "-" + parts.back() +
                          ".part");
}

http::HttpReply RunExchange::answer(const http::HttpRequest& request) {
  if (!sameToken(request.header("authorization"), "Bearer " + token_)) {
    count(&ExchangeCounters::refused_token);
    return refuse(401, "this run's token is needed (Authorization: Bearer TOKEN)");
  }
  return route(request);  // what it throws is answered 500 with its message (http_server.h)
}

http::HttpReply RunExchange::route(const http::HttpRequest& request) {
  const std::vector<std::string> parts = pathParts(request.target);
  const size_t n = parts.size();
  if (request.method == "PUT" && request.body_file.empty())
    return refuse(411, "PUT " + request.target.substr(0, 200) + ": a body with its Content-Length");
  if (request.method == "PUT" && n == 3)
    return store(request, "selfplay/" + parts[1] + "/" + parts[2]);
  if (request.method == "PUT" && n == 2) return storeTotals(request, parts[1]);
  if (request.method != "GET") return refuse(405, request.method + ": GET or PUT");
  if (n == 1 && parts[0] == "run") {
    json loop = readJsonFile(run_.folder.path("loop.json"), json::object());
    return reply(200, json{{"format", kRemoteFormat},
                           {"run", run_.folder.name()},
                           {"loop", loop},
                           {"scenario", run_.scenario->sourceText()},
                           {"max_upload_bytes", max_upload_bytes_}});
  }
  if (n == 1 && parts[0] == "latest")
    return {200, "application/json", latestText(run_.folder.readLatest()), ""};
  if (n == 2 && parts[0] == "nets" && std::regex_match(parts[1], kNetworkName)) {
    if (const auto file = servedFile(run_.folder.path("nets"), parts[1]))
      return {200, "application/octet-stream", "", *file};
  }
  if (n >= 2 && parts[0] == "archives" && std::regex_match(parts[1], kDataSet)) {
    const std::string dir = run_.folder.path("selfplay/" + parts[1]);
    if (n == 2) {
      json files = json::array();
      std::error_code ec;
      std::vector<std::pair<std::string, uint64_t>> found;
      for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.ends_with(training::kPositionsSuffix) && std::regex_match(name, kUploadName) &&
            servedFile(dir, name))
          found.emplace_back(name, e.file_size());
      }
      std::sort(found.begin(), found.end());
      for (const auto& [name, bytes] : found) files.push_back({{"name", name}, {"bytes", bytes}});
      return reply(200, json{{"files", files}});
    }
    if (n == 3 && parts[2].ends_with(training::kPositionsSuffix) &&
        std::regex_match(parts[2], kUploadName)) {
      if (const auto file = servedFile(dir, parts[2])) return {200, "application/json", "", *file};
    }
  }
  if (n == 2 && parts[0] == "workers" && std::regex_match(parts[1], kWorkerName))
    return reply(200, json{{"next_chunk", nextChunkOf(run_.folder, parts[1])}});
  return refuse(404, request.target.substr(0, 200) + ": not found");
}

http::HttpReply RunExchange::store(const http::HttpRequest& request, const std::string& relative) {
  const std::string& part = request.body_file;
  const std::string crc = fileCrcText(part);
  std::string problem;
  if (crc != request.header("x-morne-crc32")) {
    problem = "its CRC-32 is " + crc + ", not " + request.header("x-morne-crc32") +
              " as sent: damaged on the way";
  } else if (relative.ends_with(".h5")) {
    try {
      training::ShardSummaries once;
      const training::ShardSummary s = once.of(part);
      if (s.scenario != run_.scenario->name())
        problem = "a shard of scenario " + s.scenario + ", not the run's " + run_.scenario->name();
    } catch (const Error& e) {
      problem = std::string("not a readable shard: ") + e.what();
    }
  } else {
    try {
      training::readPositionArchive(*run_.scenario, part);
    } catch (const Error& e) {
      problem = std::string("not a position archive of the run's scenario: ") + e.what();
    }
  }
  if (!problem.empty()) {
    std::remove(part.c_str());
    count(&ExchangeCounters::refused);
    run_.say("serve: refused " + relative + ": " + problem);
    return refuse(422, relative + ": " + problem);
  }
  env::syncFile(part);
  const std::string target = run_.folder.path(relative);
  std::lock_guard lock(mutex_);
  if (fs::exists(target)) {
    std::remove(part.c_str());
    if (fileCrcText(target) == crc) {
      ++counters_.repeated;
      return reply(200, json{{"stored", false}, {"file", relative}});
    }
    ++counters_.refused;
    run_.say("serve: refused " + relative + ": the folder holds other bytes under that name");
    return refuse(409, relative +
                           ": the run holds other bytes under this name (two workers "
                           "of one name?)");
  }
  fs::create_directories(fs::path(target).parent_path());
  env::renameDurably(part, target);
  ++counters_.stored;
  run_.say("serve: stored " + relative + " (" + std::to_string(request.body_bytes) + " bytes)");
  return reply(201, json{{"stored", true}, {"file", relative}});
}

http::HttpReply RunExchange::storeTotals(const http::HttpRequest& request,
                                         const std::string& name) {
  const std::string& part = request.body_file;
  std::string problem;
  try {
    const json record = json::parse(env::readTextFile(part, "upload"), nullptr, false);
    const WorkerTotals totals = parseWorkerTotals(record, "the totals of worker " + name);
    if (totals.worker != name) problem = "its \"worker\" is " + totals.worker + ", not " + name;
  } catch (const Error& e) {
    problem = e.what();
  }
  if (!problem.empty()) {
    std::remove(part.c_str());
    run_.say("serve: refused the totals of worker " + name + ": " + problem);
    return refuse(422, "a worker's totals (workers/NAME.json): " + problem);
  }
  env::syncFile(part);
  env::renameDurably(part, run_.folder.path("workers/" + name + ".json"));
  return reply(200, json{{"stored", true}});
}

void serveRun(const RoleContext& run, const http::HttpServerConfig& config) {
  int removed = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(run.folder.path("incoming"), ec)) {
    if (e.path().extension() == ".part" && fs::remove(e.path(), ec)) ++removed;
  }
  if (removed > 0) {
    run.say("serve: removed " + std::to_string(removed) +
            " unfinished upload(s) of an earlier server; their workers send them again");
  }
  RunExchange exchange(run, runToken(run.folder), config.max_body_bytes);
  http::HttpServer server(config, exchange);
  const std::string host =
      config.host.find(':') != std::string::npos ? "[" + config.host + "]" : config.host;
  run.say("loop serve: http://" + host + ":" + std::to_string(server.port()) + " (token in " +
          run.folder.path("token") + ")");
  std::atomic<bool> never{false};
  server.run(run.stop ? *run.stop : never);
  const ExchangeCounters c = exchange.counters();
  run.say("serve: " + std::to_string(c.stored) + " uploads stored, " + std::to_string(c.repeated) +
          " repeated, " + std::to_string(c.refused) + " refused, " +
          std::to_string(c.refused_token) + " requests without the token");
}

}  // namespace morne::loop
