#include "env/io/builtin_scenarios.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace morne::env {

namespace {

bool hasOwnHandicap(const nlohmann::json& doc) {
  const auto balance = doc.find("balance");
  return balance != doc.end() && balance->is_object() && balance->value("vp", 0.0) != 0.0;
}

// The twin of the file `name` generated from its document `doc`: its handicap set to 0, its
// name suffixed, and a variant of a scenario that has a twin made a variant of that twin;
// nullopt when the file has no handicap of its own and is no variant of a scenario with a
// twin (`twinned`: the names of the files that have one, bases before variants).
std::optional<nlohmann::json> unbalancedTwin(std::string_view name, nlohmann::json doc,
                                             const std::set<std::string, std::less<>>& twinned) {
  const std::string base = doc.value("variant_of", "");
  const bool base_twinned = !base.empty() && twinned.count(base) > 0;
  if (!hasOwnHandicap(doc) && !base_twinned) return std::nullopt;
  if (base_twinned) doc["variant_of"] = base + kUnbalancedSuffix;
  doc["balance"] = {{"vp_to", "blue"}, {"vp", 0}};
  doc["name"] = std::string(name) + kUnbalancedSuffix;
  doc["title"] = doc.value("title", std::string(name)) + ", without its handicap";
  return doc;
}

}  // namespace

const std::vector<BuiltinScenario>& builtinScenarios() {
  static const std::vector<BuiltinScenario> kAll = [] {
    static std::deque<std::string> texts;  // stable storage for the twins' names and documents
    std::vector<BuiltinScenario> all = embeddedScenarioFiles();
    std::set<std::string, std::less<>>
        twinned;  // files with a twin: a file of the twin's name, or generated
    for (const BuiltinScenario& file : all) {
      const std::string_view name = file.name;
      if (name.ends_with(kUnbalancedSuffix))
        twinned.emplace(name.substr(0, name.size() - std::string_view(kUnbalancedSuffix).size()));
    }
    // Each file parsed once; bases before variants, so that a variant knows whether its base
    // has a twin.
    std::vector<std::pair<BuiltinScenario, nlohmann::json>> files;
    for (const bool variants : {false, true})
      for (const BuiltinScenario& file : embeddedScenarioFiles()) {
        nlohmann::json doc = nlohmann::json::parse(file.json);
        if (doc.contains("variant_of") == variants) files.emplace_back(file, std::move(doc));
      }
    for (auto& [file, doc] : files) {
      if (twinned.count(file.name) > 0) continue;  // its twin is a file of its own
      const auto twin = unbalancedTwin(file.name, std::move(doc), twinned);
      if (!twin) continue;
      twinned.emplace(file.name);
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
