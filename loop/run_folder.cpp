#include "loop/run_folder.h"

#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "env/error.h"
#include "env/io/crc32.h"
#include "env/io/text_file.h"
#include "training/shard_writer.h"
#include "training/training_data.h"

namespace morne::loop {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kLatestFormat = "morne-latest/1";

// Whether `name` is a relative path that stays inside the folder it is relative to.
bool insideTheFolder(const std::string& name) {
  if (name.empty()) return true;  // no network yet
  const fs::path p(name);
  if (p.is_absolute() || name.find('\0') != std::string::npos) return false;
  for (const fs::path& part : p) {
    if (part == ".." || part == "." || part.empty()) return false;
  }
  return true;
}

std::string readNetworkBytes(const std::string& file) {
  return env::readTextFile(file, "network file", size_t{1} << 32);
}

}  // namespace

std::string generationName(int generation) {
  char name[16];
  std::snprintf(name, sizeof name, "gen-%03d", generation);
  return name;
}

json readJsonFile(const std::string& path, const json& fallback) {
  if (!fs::exists(path)) return fallback;
  json j = json::parse(env::readTextFile(path, "run file"), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw ConfigError(path + ": damaged (not a JSON object)");
  return j;
}

bool readRecordFile(const std::string& path, const std::string& format, const std::string& what,
                    const std::function<void(const json&)>& read) {
  const json j = readJsonFile(path, json());
  if (j.is_null()) return false;
  if (j.value("format", "") != format)
    throw ConfigError(path + ": not " + what + " (format " + format + ")");
  try {
    read(j);
  } catch (const json::exception& e) {
    throw ConfigError(path + ": damaged (" + std::string(e.what()) + ")");
  }
  return true;
}

namespace {

const env::OptionRow<LatestNetwork> kLatestRows[] = {
    {"data_set", &LatestNetwork::data_set, env::atLeast(0), "the data set the workers play"},
    {"network", &LatestNetwork::network, env::anyValue(),
     "the best network, inside the run folder (empty: the bootstrap agent)"},
    {"network_generation", &LatestNetwork::network_generation, env::atLeast(-1),
     "its generation (-1: none yet)"},
    {"bytes", &LatestNetwork::bytes, env::anyValue(), "its size"},
    {"crc32", &LatestNetwork::crc32, env::anyValue(), "its CRC-32"},
};

}  // namespace

std::string RunFolder::name() const {
  const std::filesystem::path normal = std::filesystem::absolute(dir_).lexically_normal();
  return (normal.has_filename() ? normal : normal.parent_path()).filename().string();
}

namespace {

// Throws ConfigError naming `where` when `latest` names a file outside the folder.
void checkInside(const LatestNetwork& latest, const std::string& where) {
  if (!insideTheFolder(latest.network)) {
    throw ConfigError(where + ": network \"" + latest.network.substr(0, 200) +
                      "\" is not a file inside the run folder");
  }
}

}  // namespace

std::string latestText(const LatestNetwork& latest) {
  json j = env::optionsJson<LatestNetwork>(kLatestRows, latest);
  j["format"] = kLatestFormat;
  return j.dump(1) + "\n";
}

LatestNetwork parseLatest(const std::string& text, const std::string& where) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object() || j.value("format", "") != kLatestFormat)
    throw ConfigError(where + ": not a latest-network pointer (format " + kLatestFormat + ")");
  LatestNetwork latest;
  try {
    env::readOptionsJson<LatestNetwork>(where, j, kLatestRows, latest);
  } catch (const json::exception& e) {
    throw ConfigError(where + ": damaged (" + std::string(e.what()) + ")");
  }
  checkInside(latest, where);
  return latest;
}

LatestNetwork RunFolder::readLatest() const {
  LatestNetwork latest;
  readRecord<LatestNetwork>(path("latest.json"), kLatestFormat, "a latest-network pointer",
                            kLatestRows, latest);
  checkInside(latest, path("latest.json"));
  return latest;
}

void RunFolder::writeLatest(const LatestNetwork& latest) const {
  env::writeFileDurably(path("latest.json"), latestText(latest));
}

void RunFolder::placeInitialNetwork(const std::string& source) const {
  const std::string copy = path(kInitialNetwork);
  if (!fs::exists(copy)) env::writeFileDurably(copy, readNetworkBytes(source));
  if (fs::exists(path("latest.json"))) return;
  LatestNetwork latest;
  latest.network = kInitialNetwork;
  latest.network_generation = 0;
  measureNetwork(copy, latest);
  writeLatest(latest);
}

void RunFolder::measureNetwork(const std::string& file, LatestNetwork& latest) {
  const std::string bytes = readNetworkBytes(file);
  latest.bytes = bytes.size();
  latest.crc32 = env::crc32Of(bytes);
}

std::string RunFolder::networkProblem(const LatestNetwork& latest) const {
  if (latest.network.empty()) return "";
  std::string bytes;
  try {
    bytes = readNetworkBytes(path(latest.network));
  } catch (const IoError& e) {
    return e.what();  // not there (yet)
  }
  const uint32_t crc = env::crc32Of(bytes);
  if (bytes.size() == latest.bytes && crc == latest.crc32) return "";
  char text[160];
  std::snprintf(text, sizeof text,
                "latest.json gives %llu bytes with CRC-32 %08x, the file has %llu bytes with "
                "CRC-32 %08x",
                static_cast<unsigned long long>(latest.bytes), latest.crc32,
                static_cast<unsigned long long>(bytes.size()), crc);
  return latest.network + ": " + text;
}

int RunFolder::gamesIn(int g, bool recover) const {
  const std::string dir = dataSet(g);
  if (!fs::exists(dir)) return 0;
  if (recover) {
    for (const training::RecoveredShard& r : training::recoverShards(dir)) {
      const std::string text = training::recoveryText(r);
      log(text);
      std::cerr << "morne: " << text << "\n";
    }
  }
  std::vector<std::string> shards;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".h5") shards.push_back(entry.path().string());
  known_->prefetch(shards);  // the new ones read together, in one child process
  int64_t games = 0;
  for (const std::string& shard : shards)
    games += static_cast<int64_t>(known_->of(shard).games.size());
  return static_cast<int>(games);
}

void RunFolder::log(const std::string& line) const {
  env::AppendOnlyFile(path("log.txt"), false).append(line + "\n");
}

std::unique_ptr<env::FileLock> lockRole(const std::string& lock_path, const std::string& who) {
  fs::create_directories(fs::path(lock_path).parent_path());
  std::unique_ptr<env::FileLock> lock = env::FileLock::tryLock(lock_path);
  if (!lock) {
    throw ConfigError(who + " already runs in this run folder (" + lock_path +
                      " is locked by a live process)");
  }
  return lock;
}

double processCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

}  // namespace morne::loop
