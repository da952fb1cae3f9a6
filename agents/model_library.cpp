#include "agents/model_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

#include "env/error.h"

namespace morne::agents {

namespace fs = std::filesystem;

bool isModelPath(const std::string& model) {
  return model.find('/') != std::string::npos || model.ends_with(".pt");
}

namespace {

std::mutex added_mutex;
std::vector<std::string>& addedFolders() {
  static std::vector<std::string> folders;
  return folders;
}

}  // namespace

void addModelFolder(const std::string& folder) {
  std::lock_guard lock(added_mutex);
  auto& folders = addedFolders();
  if (std::find(folders.begin(), folders.end(), folder) == folders.end()) folders.push_back(folder);
}

std::vector<std::string> modelFolders() {
  std::vector<std::string> candidates;
  if (const char* list = std::getenv("MORNE_MODELS")) {
    std::istringstream in(list);
    for (std::string folder; std::getline(in, folder, ':');) {
      if (!folder.empty()) candidates.push_back(folder);
    }
  }
  {
    std::lock_guard lock(added_mutex);
    for (const std::string& folder : addedFolders()) candidates.push_back(folder);
  }
  // The executable's folder above its own, read once per process (empty when unknown).
  static const fs::path top = [] {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path().parent_path();
  }();
  if (!top.empty()) {
    candidates.push_back((top / "models").string());
    candidates.push_back((top / "share" / "morne" / "models").string());
  }
  std::vector<std::string> folders;
  for (const std::string& folder : candidates) {
    std::error_code ec;
    if (fs::is_directory(folder, ec) &&
        std::find(folders.begin(), folders.end(), folder) == folders.end())
      folders.push_back(folder);
  }
  return folders;
}

std::vector<std::pair<std::string, std::string>> shippedModels() {
  std::map<std::string, std::string> found;
  for (const std::string& folder : modelFolders()) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      if (entry.path().extension() != ".pt" || !entry.is_regular_file(ec)) continue;
      found.emplace(entry.path().stem().string(), entry.path().string());  // the first folder's
    }
  }
  return {found.begin(), found.end()};
}

std::string modelFile(const std::string& model) {
  if (isModelPath(model)) return model;
  std::string names;
  for (const auto& [name, file] : shippedModels()) {
    if (name == model) return file;
    names += (names.empty() ? "" : ", ") + name;
  }
  std::string folders;
  for (const std::string& folder : modelFolders())
    folders += (folders.empty() ? "" : ", ") + folder;
  throw ConfigError("az: no shipped model named \"" + model +
                    "\" (model folders: " + (folders.empty() ? "none found" : folders) +
                    "; models: " + (names.empty() ? "none" : names) +
                    "); a network file is given by its path, such as ./" + model + ".pt");
}

}  // namespace morne::agents
