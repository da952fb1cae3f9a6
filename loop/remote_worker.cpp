#include "loop/remote_worker.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "agents/agent_kinds.h"
#include "env/error.h"
#include "env/io/crc32.h"
#include "env/io/durable_file.h"
#include "env/io/text_file.h"
#include "http/http_client.h"
#include "loop/loop_config.h"
#include "loop/selfplay_worker.h"
#include "training/position_archive.h"

namespace morne::loop {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kRemoteFormat = "morne-remote/1";
// Archive starts come from the position archives of this many data sets before the one played
// (as loop/selfplay_worker.cpp reads them).
constexpr int kArchiveDataSets = 4;

std::string crcText(uint32_t crc) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", crc);
  return text;
}

// Refuses a run whose settings name an agent that starts a program, unless the worker's own
// command line allows it (--allow-programs): the settings come from the server.
void checkPrograms(const LoopSettings& loop, const std::string& url) {
  std::vector<std::string> specs = {loop.bootstrap, loop.agent, loop.gate_agent, loop.ladder_agent};
  std::istringstream references(loop.ladder_references);
  for (std::string spec; references >> spec;) specs.push_back(spec);
  for (const std::string& spec : specs) {
    if (agents::startsProgram(spec)) {
      throw ConfigError("remote: the run of " + url + " names the agent \"" + spec.substr(0, 200) +
                        "\", which starts a program on this machine; a remote worker runs "
                        "none unless its own command line says --allow-programs");
    }
  }
}

// The worker's side of the exchange: its client, its folder, and how it reports.
class Remote {
 public:
  explicit Remote(const RemoteWorkerSettings& s) : s_(s), client_(s.url, s.token, s.timeout_s) {}

  bool stopping() const { return s_.stop && s_.stop->load(); }

  void say(const std::string& line) const {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    if (log_) log_->log(line);
  }

  void logTo(const RunFolder& folder) { log_ = &folder; }

  // `request()` until an answer comes (waiting 1 s, doubling to 60 s, between tries) or the
  // worker stops (then the last failure). A refused token ends the worker.
  http::HttpAnswer call(const std::string& what, const std::function<http::HttpAnswer()>& request) {
    int wait_s = 1;
    for (;;) {
      http::HttpAnswer a = request();
      if (a.status == 401) {
        throw ConfigError("remote: " + s_.url + " refused the token (" + what +
                          "): give the run's token (RUN/token on the server) with --token-file");
      }
      if (a.status != 0 || stopping()) return a;
      say("remote: " + s_.url + ": " + what + ": " + a.problem + "; trying again in " +
          std::to_string(wait_s) + " s");
      for (int i = 0; i < wait_s * 10 && !stopping(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      wait_s = std::min(60, wait_s * 2);
    }
  }

  // The body of a GET that must succeed: ConfigError when the server refuses it, IoError when
  // the worker stopped before an answer came.
  json getJson(const std::string& target) {
    const http::HttpAnswer a = call("GET " + target, [&] { return client_.get(target); });
    if (a.status == 0) throw IoError("remote: " + s_.url + target + ": " + a.problem);
    const json j = json::parse(a.body, nullptr, false);
    if (!a.ok() || !j.is_object()) {
      throw ConfigError("remote: " + s_.url + target + " answered " + std::to_string(a.status) +
                        ": " + a.body.substr(0, 300));
    }
    return j;
  }

  // GETs `target` into `file` through FILE.part, at most `max_bytes` of it (the size the
  // server declared: a longer answer stops there), checked by `check` (a problem, or "").
  void fetchFile(const std::string& target, const std::string& file, uint64_t max_bytes,
                 const std::function<std::string(const std::string&)>& check) {
    const std::string part = file + ".part";
    fs::create_directories(fs::path(file).parent_path());
    const http::HttpAnswer a =
        call("GET " + target, [&] { return client_.getFile(target, part, max_bytes); });
    if (a.status == 0) throw IoError("remote: " + s_.url + target + ": " + a.problem);
    if (!a.ok())
      throw ConfigError("remote: " + s_.url + target + " answered " + std::to_string(a.status));
    const std::string problem = check(env::readTextFile(part, "download", size_t{1} << 34));
    if (!problem.empty()) {
      std::remove(part.c_str());
      throw IoError("remote: " + s_.url + target + ": " + problem);
    }
    env::syncFile(part);
    env::renameDurably(part, file);
  }

  // Sends every finished shard and archive of the worker in its folder (journals of a killed
  // worker turned into shards first), removing each copy the server has said it holds. False
  // when the worker stopped before every one was sent.
  bool upload(const RunFolder& folder) {
    std::vector<std::pair<int, fs::path>> files;
    std::error_code ec;
    for (const auto& set : fs::directory_iterator(folder.path("selfplay"), ec)) {
      const std::string set_name = set.path().filename().string();
      if (!set.is_directory() || !set_name.starts_with("gen-")) continue;
      const int g = std::stoi(set_name.substr(4));
      folder.gamesIn(g);  // recovers this worker's journals of a killed run
      for (const auto& e : fs::directory_iterator(set.path())) {
        const std::string name = e.path().filename().string();
        if (name.starts_with(s_.name + "-") &&
            (name.ends_with(".h5") || name.ends_with(training::kPositionsSuffix)))
          files.emplace_back(g, e.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const auto& [g, path] : files) {
      const std::string name = path.filename().string();
      const std::string target = "/v1/selfplay/" + generationName(g) + "/" + name;
      std::error_code size_ec;
      const uint64_t bytes = fs::file_size(path, size_ec);
      if (!size_ec && max_upload_bytes_ > 0 && bytes > max_upload_bytes_) {
        keepAside(path, name + " is " + std::to_string(bytes) + " bytes, more than the " +
                            std::to_string(max_upload_bytes_) + " the server takes");
        continue;
      }
      const std::string file = path.string(), crc = crcText(env::crc32OfFile(file));
      const http::HttpAnswer a = call("PUT " + target, [&] {
        return client_.putFile(target, file, {{"X-Morne-Crc32", crc}});
      });
      if (a.status == 0) return false;
      if (a.status == 409) {
        throw ConfigError("remote: the run holds other bytes under " + generationName(g) + "/" +
                          name + ": does another worker of the run have the name " + s_.name +
                          "? (" + a.body.substr(0, 200) + ")");
      }
      if (!a.ok()) {  // refused as damaged or too large: kept aside, never deleted
        keepAside(path, name + " refused (" + std::to_string(a.status) + " " +
                            a.body.substr(0, 300) + ")");
        continue;
      }
      env::removeDurably(path.string());
    }
    return true;
  }

  // Keeps a file the server will not take aside as FILE.refused, saying `why`.
  void keepAside(const fs::path& path, const std::string& why) {
    const std::string aside = path.string() + ".refused";
    env::renameDurably(path.string(), aside);
    say("remote: " + why + "; kept as " + aside);
  }

  void setMaxUpload(uint64_t bytes) { max_upload_bytes_ = bytes; }

  // Makes the worker's folder hold the network latest.json names (fetched when new) and the
  // archives its games may start from, then writes its latest.json. Returns the pointer.
  LatestNetwork follow(const RunFolder& folder, bool archives) {
    const http::HttpAnswer a = call("GET /v1/latest", [&] { return client_.get("/v1/latest"); });
    if (a.status == 0) throw IoError("remote: " + s_.url + "/v1/latest: " + a.problem);
    if (!a.ok()) throw ConfigError("remote: /v1/latest answered " + std::to_string(a.status));
    const LatestNetwork latest = parseLatest(a.body, s_.url + "/v1/latest");
    if (!latest.network.empty() && !folder.networkProblem(latest).empty()) {
      const std::string file = fs::path(latest.network).filename().string();
      say("remote: fetching " + latest.network + " (" + std::to_string(latest.bytes) + " bytes)");
      fetchFile(
          "/v1/nets/" + file, folder.path(latest.network), latest.bytes,
          [&](const std::string& bytes) {
            const bool same = bytes.size() == latest.bytes && env::crc32Of(bytes) == latest.crc32;
            return same ? ""
                        : "the network's size or CRC-32 is not latest.json's: damaged on the way";
          });
    }
    if (archives && !latest.network.empty()) {
      for (int d = std::max(0, latest.data_set - kArchiveDataSets); d < latest.data_set; ++d) {
        const json list = getJson("/v1/archives/" + generationName(d));
        for (const json& f : list.value("files", json::array())) {
          const std::string name = f.value("name", "");
          const std::string file = folder.dataSet(d) + "/" + name;
          if (name.empty() || name.find('/') != std::string::npos || fs::exists(file)) continue;
          fetchFile("/v1/archives/" + generationName(d) + "/" + name, file,
                    f.value("bytes", uint64_t{0}), [&](const std::string& bytes) {
                      return bytes.size() == f.value("bytes", uint64_t{0}) ? ""
                                                                           : "not the listed size";
                    });
        }
      }
    }
    folder.writeLatest(latest);
    return latest;
  }

  void sendTotals(const RunFolder& folder) {
    const std::string path = folder.path("workers/" + s_.name + ".json");
    if (!fs::exists(path)) return;
    const std::string body = env::readTextFile(path, "worker totals");
    const std::string target = "/v1/workers/" + s_.name;
    call("PUT " + target, [&] { return client_.put(target, body); });
  }

 private:
  const RemoteWorkerSettings& s_;
  http::HttpClient client_;
  const RunFolder* log_ = nullptr;
  uint64_t max_upload_bytes_ = 0;  // the server's bound on an upload (0: not told)
};

// Makes DIR the worker's copy of the run's settings and scenario, and returns them. DIR may hold
// another run's work only if it never began it.
LoopConfig adoptRun(Remote& remote, const RemoteWorkerSettings& s) {
  const json run = remote.getJson("/v1/run");
  if (run.value("format", "") != kRemoteFormat || !run.contains("loop") ||
      !run.at("loop").is_object() || !run.value("scenario", json()).is_string()) {
    throw ConfigError("remote: " + s.url + "/v1/run is not a run (format " + kRemoteFormat + ")");
  }
  fs::create_directories(s.dir);
  const std::string identity = s.dir + "/remote.json";
  const json mine = {{"url", s.url}, {"run", run.value("run", "")}};
  const json known = readJsonFile(identity, json());
  if (!known.is_null() && known.value("run", "") != mine["run"]) {
    throw ConfigError(s.dir + " is the folder of a worker of run " + known.value("run", "") +
                      ", not of " + mine["run"].get<std::string>() +
                      " (remote.json): give each run its own folder");
  }
  if (known.is_null()) env::writeFileDurably(identity, mine.dump(1) + "\n");
  env::writeFileDurably(s.dir + "/loop.json", run.at("loop").dump(2) + "\n");
  env::writeFileDurably(s.dir + "/scenario.json", run.at("scenario").get<std::string>());
  LoopConfig c = readLoopRecord(s.dir);
  if (!s.allow_programs) checkPrograms(c.loop, s.url);
  const json max_upload = run.value("max_upload_bytes", json());
  remote.setMaxUpload(max_upload.is_number_unsigned() ? max_upload.get<uint64_t>() : 0);
  c.loop.scenario = s.dir + "/scenario.json";
  c.loop.init.clear();  // the run's first network comes through latest.json like any other
  c.loop.jobs = s.jobs;
  return c;
}

}  // namespace

int64_t runRemoteWorker(const RemoteWorkerSettings& s) {
  Remote remote(s);
  const LoopConfig config = adoptRun(remote, s);
  const RoleContext run = openRun(config, s.dir, s.quiet, s.stop);
  remote.logTo(run.folder);
  SelfplayWorker worker(run, s.name, s.jobs);
  const json next = remote.getJson("/v1/workers/" + s.name);
  worker.continueFrom(next.value("next_chunk", int64_t{0}));
  run.say("worker " + s.name + ": started for " + s.url + " (" + std::to_string(s.jobs) +
          " threads, chunks of " + std::to_string(config.loop.chunk_games) + " games)");
  int64_t played = 0;
  remote.upload(run.folder);  // what a killed worker left
  while (!run.stopping() && (s.max_games == 0 || played < s.max_games)) {
    const LatestNetwork latest = remote.follow(run.folder, config.selfplay.start_share > 0);
    if (latest.data_set >= config.loop.generations) {
      run.say("worker " + s.name + ": the run's last generation is gated; done");
      break;
    }
    const int64_t left = s.max_games == 0 ? config.loop.chunk_games : s.max_games - played;
    const int done =
        worker.playChunk(static_cast<int>(std::min<int64_t>(config.loop.chunk_games, left)));
    played += done;
    if (!remote.upload(run.folder)) break;
    remote.sendTotals(run.folder);
    if (done == 0 && !run.stopping()) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (run.stopping()) remote.upload(run.folder);  // one try for the chunk the stop cut short
  run.say("worker " + s.name + ": " + std::to_string(played) + " games played");
  return played;
}

}  // namespace morne::loop
