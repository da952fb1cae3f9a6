#include "env/io/scenario_variant.h"

#include <string>

#include "env/io/builtin_scenarios.h"
#include "env/io/json_reader.h"
#include "env/types.h"

namespace morne::env {

using nlohmann::json;

namespace {

// The unit object with id `id` in the full document, or nullptr.
json* findUnit(json& full, const std::string& id) {
  for (json& side : full["sides"]) {
    for (json& unit : side["units"]) {
      if (unit.value("id", "") == id) return &unit;
    }
  }
  return nullptr;
}

}  // namespace

bool isScenarioVariant(const json& doc) { return doc.is_object() && doc.contains("variant_of"); }

std::optional<json> expandScenarioVariant(const json& doc, std::vector<Problem>& problems) {
  JsonReader in(problems);
  const size_t before = in.count();
  if (!in.expectObject(doc, "",
                       {"format", "variant_of", "name", "title", "description", "turns", "balance",
                        "rules", "home_edges", "units"})) {
    return std::nullopt;
  }
  auto base_name = in.string(doc["variant_of"], "/variant_of");
  if (!base_name) return std::nullopt;
  const char* base_text = nullptr;
  std::string names;
  for (const BuiltinScenario& b : builtinScenarios()) {
    if (*base_name == b.name) base_text = b.json;
    if (!isScenarioVariant(json::parse(b.json))) names += std::string(" ") + b.name;
  }
  if (!base_text) {
    in.fail("/variant_of",
            "\"" + *base_name + "\" is not a built-in base scenario (bases:" + names + ")");
    return std::nullopt;
  }
  json full = json::parse(base_text);
  if (isScenarioVariant(full)) {
    in.fail("/variant_of", "\"" + *base_name + "\" is itself a variant; name its base scenario");
    return std::nullopt;
  }
  for (const char* key : {"format", "name", "title", "description", "turns", "balance"}) {
    if (doc.contains(key)) full[key] = doc[key];  // checked by the scenario loader
  }
  if (const json* rules = JsonReader::optional(doc, "rules")) {
    if (!rules->is_object()) {
      in.fail("/rules", "expected an object of rule switches");
    } else {
      for (auto it = rules->begin(); it != rules->end(); ++it) full["rules"][it.key()] = *it;
    }
  }
  if (const json* edges = JsonReader::optional(doc, "home_edges");
      edges && in.expectObject(*edges, "/home_edges", {"blue", "orange"})) {
    for (int side = 0; side < kNumSides; ++side) {
      const std::string color(sideColor(side));
      if (edges->contains(color))
        full["sides"][static_cast<size_t>(side)]["home_edge"] = (*edges)[color];
    }
  }
  if (const json* units = JsonReader::optional(doc, "units")) {
    if (!units->is_object()) {
      in.fail("/units", "expected an object of unit ids, each with its morale attributes");
    } else {
      for (auto it = units->begin(); it != units->end(); ++it) {
        const std::string path = JsonReader::child("/units", it.key());
        json* unit = findUnit(full, it.key());
        if (!unit) {
          in.fail(path, "no unit \"" + it.key() + "\" in " + *base_name);
          continue;
        }
        // Only the attributes of the variant modules (V-MOR-2, V-MOR-5, V-ROUT-6).
        if (!in.expectObject(*it, path, {"morale_factor", "quality", "cavalry"})) continue;
        for (auto attr = it->begin(); attr != it->end(); ++attr) (*unit)[attr.key()] = *attr;
      }
    }
  }
  if (in.count() != before) return std::nullopt;
  return full;
}

}  // namespace morne::env
