#include "training/position_archive.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/json_nesting.h"
#include "env/io/state_json.h"
#include "env/io/text_file.h"

namespace morne::training {

namespace {

constexpr const char* kArchiveFormat = "morne-positions/1";

// The archives of `dir`, by name.
std::vector<std::string> archivesIn(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > std::string(kPositionsSuffix).size() && name.ends_with(kPositionsSuffix) &&
        entry.is_regular_file(ec))
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The positions of the archive `path` (still JSON), checked to be an archive of `sc`. Throws
// ConfigError naming the file when it is not.
nlohmann::json archivedPositionsOf(const env::Scenario& sc, const std::string& path) {
  const std::string text = env::readTextFile(path, "position archive");
  if (const size_t depth = env::jsonNestingDepth(text); depth > env::kMaxJsonNesting) {
    throw ConfigError(path + ": not a position archive (nested " + std::to_string(depth) +
                      " levels deep; at most " + std::to_string(env::kMaxJsonNesting) + ")");
  }
  const nlohmann::json archive = nlohmann::json::parse(text, nullptr, false);
  if (archive.is_discarded()) throw ConfigError(path + ": not readable (not JSON)");
  if (!archive.is_object() || archive.value("format", "") != kArchiveFormat ||
      !archive.contains("positions") || !archive.at("positions").is_array() ||
      !archive.value("scenario", nlohmann::json()).is_string())
    throw ConfigError(path + ": not a position archive (" + kArchiveFormat + ")");
  const std::string scenario = archive.at("scenario").get<std::string>();
  const nlohmann::json& positions = archive.at("positions");
  if (!positions.empty() && scenario != sc.name()) {
    throw ConfigError(path + ": positions of scenario \"" + scenario + "\", not \"" + sc.name() +
                      "\"");
  }
  return positions;
}

}  // namespace

std::vector<env::GameState> readPositionArchive(const env::Scenario& sc, const std::string& path) {
  const nlohmann::json positions = archivedPositionsOf(sc, path);
  std::vector<env::GameState> states;
  for (size_t i = 0; i < positions.size(); ++i)
    states.push_back(
        env::stateFromJson(sc, positions[i], path + ": position " + std::to_string(i)));
  return states;
}

void writePositionArchive(const std::string& path, std::span<const env::GameState> positions) {
  nlohmann::json list = nlohmann::json::array();
  for (const env::GameState& s : positions) list.push_back(env::stateToJson(s));
  const nlohmann::json archive = {
      {"format", kArchiveFormat},
      {"scenario", positions.empty() ? std::string() : positions.front().sc().name()},
      {"positions", list}};
  env::writeFileDurably(path, archive.dump() + "\n");
}

ArchivedPositions readPositionArchives(const env::Scenario& sc,
                                       const std::vector<std::string>& dirs, size_t most) {
  ArchivedPositions out;
  // Newest first, then reversed: the most recent `most` positions, oldest first.
  std::vector<env::GameState> newest_first;
  for (auto dir = dirs.rbegin(); dir != dirs.rend() && newest_first.size() < most; ++dir) {
    std::vector<std::string> files = archivesIn(*dir);
    for (auto file = files.rbegin(); file != files.rend() && newest_first.size() < most; ++file) {
      nlohmann::json positions;
      try {
        positions = archivedPositionsOf(sc, *file);
      } catch (const Error& e) {
        out.problems.push_back(e.what());
        continue;
      }
      ++out.files;
      for (size_t i = positions.size(); i-- > 0 && newest_first.size() < most;) {
        const std::string where = *file + ": position " + std::to_string(i);
        try {
          newest_first.push_back(env::stateFromJson(sc, positions[i], where));
        } catch (const Error& e) {
          out.problems.push_back(e.what());
        }
      }
    }
  }
  out.positions.assign(newest_first.rbegin(), newest_first.rend());
  return out;
}

}  // namespace morne::training
