#include "env/io/builtin_scenarios.h"

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace morne::env {

namespace {

// The document of a scenario file with its handicap set to 0 and its name suffixed; nullopt
// when the file has no handicap.
std::optional<nlohmann::json> unbalancedTwin(const BuiltinScenario& file) {
  nlohmann::json doc = nlohmann::json::parse(file.json);
  const auto balance = doc.find("balance");
  if (balance == doc.end() || !balance->is_object() || balance->value("vp", 0.0) == 0.0) {
    return std::nullopt;
  }
  (*balance)["vp"] = 0;
  doc["name"] = std::string(file.name) + kUnbalancedSuffix;
  doc["title"] = doc.value("title", std::string(file.name)) + ", without its handicap";
  return doc;
}

}  // namespace

const std::vector<BuiltinScenario>& builtinScenarios() {
  static const std::vector<BuiltinScenario> kAll = [] {
    static std::deque<std::string> texts;  // stable storage for the twins' names and documents
    std::vector<BuiltinScenario> all = embeddedScenarioFiles();
    for (const BuiltinScenario& file : embeddedScenarioFiles()) {
      const auto twin = unbalancedTwin(file);
      if (!twin) continue;
      const char* name = texts.emplace_back(std::string(file.name) + kUnbalancedSuffix).c_str();
      all.push_back({name, texts.emplace_back(twin->dump(2)).c_str()});
    }
    std::sort(all.begin(), all.end(), [](const BuiltinScenario& a, const BuiltinScenario& b) {
      return std::string_view(a.name) < std::string_view(b.name);
    });
    return all;
  }();
  return kAll;
}

}  // namespace morne::env
