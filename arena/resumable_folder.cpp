#include "arena/resumable_folder.h"

#include <filesystem>

#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/text_file.h"

namespace morne::arena {

namespace fs = std::filesystem;
using nlohmann::json;

bool openResumableFolder(const std::string& folder, const std::string& request_name,
                         const std::string& records_name, const json& run, bool force,
                         const std::string& what) {
  const std::string file = (fs::path(folder) / request_name).string();
  const std::string records = (fs::path(folder) / records_name).string();
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw IoError(env::printablePath(folder) + ": cannot make the folder: " + ec.message());
  if (fs::exists(file)) {
    json saved;
    try {
      saved = json::parse(env::readTextFile(file, what + " file"));
    } catch (const json::exception& e) {
      throw ConfigError(env::printablePath(file) + ": not a " + what + " file: " + e.what());
    }
    if (saved == run && !force) return true;
    if (!force) {
      for (const auto& [key, value] : run.items()) {
        if (saved.value(key, json()) != value) {
          throw ConfigError(env::printablePath(file) + ": the run saved here has " + key + " " +
                            saved.value(key, json()).dump() + ", not " + value.dump() +
                            " (another --out, or --force to start over)");
        }
      }
    }
  }
  env::removeDurably(records);
  env::writeFileDurably(file, run.dump(2) + "\n");
  return false;
}

}  // namespace morne::arena
