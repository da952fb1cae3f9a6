#include "env/io/scenario_json.h"

#include <cctype>
#include <map>

#include "env/io/json_nesting.h"
#include "env/io/json_reader.h"
#include "env/io/scenario_loader.h"
#include "env/io/scenario_variant.h"
#include "env/io/text_file.h"

namespace morne::env {

using nlohmann::json;

std::optional<json> parseJsonText(std::string_view text, std::vector<Problem>& problems) {
  if (const size_t depth = jsonNestingDepth(text); depth > kMaxJsonNesting) {
    problems.push_back({"", "arrays and objects nested " + std::to_string(depth) +
                                " levels deep; at most " + std::to_string(kMaxJsonNesting) +
                                " are allowed"});
    return std::nullopt;
  }
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::out_of_range& e) {
    problems.push_back({"", std::string("invalid JSON: ") + e.what()});
    return std::nullopt;
  } catch (const json::parse_error& e) {
    // Convert the byte offset into line and column for the user.
    size_t line = 1;
    size_t column = 1;
    const size_t end = std::min(static_cast<size_t>(e.byte), text.size());
    for (size_t i = 0; i + 1 < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    const auto pos = what.find("syntax error");
    if (pos != std::string::npos) what = what.substr(pos);
    problems.push_back({"", "line " + std::to_string(line) + ", column " + std::to_string(column) +
                                ": invalid JSON: " + what});
    return std::nullopt;
  }
}

// Builds a Scenario from a parsed document. One instance per load.

std::shared_ptr<Scenario> ScenarioLoader::load(const json& doc, std::string_view text) {
  sc_ = std::make_shared<Scenario>();
  sc_->source_text_ = std::string(text);
  if (!in_.expectObject(doc, "",
                        {"format", "name", "title", "description", "turns", "map", "sides",
                         "objectives", "zones", "forts", "balance", "rules"})) {
    return nullptr;
  }
  readHeader(doc);
  if (const json* rules = JsonReader::optional(doc, "rules")) readRules(*rules, "/rules");
  const json* map = in_.required(doc, "", "map");
  if (!map || !readMap(*map, "/map")) return nullptr;  // everything else refers to the map
  if (const json* sides = in_.required(doc, "", "sides")) readSides(*sides, "/sides");
  if (const json* v = JsonReader::optional(doc, "objectives")) readObjectives(*v, "/objectives");
  if (const json* v = JsonReader::optional(doc, "zones")) readZones(*v, "/zones");
  if (const json* v = JsonReader::optional(doc, "balance")) readBalance(*v, "/balance");
  if (!in_.ok()) return nullptr;
  sc_->finalize();
  if (static_cast<int>(sc_->tracked_cells_.size()) > kMaxTracked) {
    in_.fail("/zones", "passing objectives and passing-zone hexes number " +
                           std::to_string(sc_->tracked_cells_.size()) + "; at most " +
                           std::to_string(kMaxTracked) + " are supported");
  }
  if (const json* v = JsonReader::optional(doc, "forts")) readForts(*v, "/forts");
  checkPlacements();
  return in_.ok() ? sc_ : nullptr;
}

void ScenarioLoader::readHeader(const json& doc) {
  if (const json* f = in_.required(doc, "", "format")) {
    if (auto s = in_.string(*f, "/format"); s && *s != kScenarioFormat) {
      in_.fail("/format", "unsupported format \"" + *s + "\" (this build reads \"" +
                              std::string(kScenarioFormat) + "\")");
    }
  }
  if (const json* v = in_.required(doc, "", "name")) {
    if (auto s = in_.string(*v, "/name")) {
      sc_->name_ = *s;
      if (s->empty()) in_.fail("/name", "must not be empty");
    }
  }
  if (const json* v = JsonReader::optional(doc, "title")) {
    if (auto s = in_.string(*v, "/title")) sc_->title_ = *s;
  }
  if (const json* v = JsonReader::optional(doc, "description")) {
    if (auto s = in_.string(*v, "/description")) sc_->description_ = *s;
  }
  if (const json* v = in_.required(doc, "", "turns")) {
    if (auto t = in_.integer(*v, "/turns", 1, 99)) sc_->turns_ = *t;
  }
}

void ScenarioLoader::readRules(const json& v, const Path& path) {
  if (!v.is_object()) {
    in_.fail(path, "expected an object of rule switches");
    return;
  }
  for (auto it = v.begin(); it != v.end(); ++it) {
    const Path p = JsonReader::child(path, it.key());
    if (it.key() == "combat_results_table") {
      readCombatResultsTable(*it, p);
      continue;
    }
    const RuleSwitchInfo* info = findRuleSwitch(it.key());
    if (!info) {
      in_.fail(p, "unknown rule switch \"" + it.key() + "\" (see `morne scenario switches`)");
      continue;
    }
    switch (info->kind) {
      case RuleSwitchInfo::Kind::kBool:
        if (auto b = in_.boolean(*it, p)) info->set(sc_->rules_, *b ? 1 : 0);
        break;
      case RuleSwitchInfo::Kind::kInt:
        if (auto x = in_.integer(*it, p, info->min_value, info->max_value)) {
          info->set(sc_->rules_, *x);
        }
        break;
      case RuleSwitchInfo::Kind::kChoice: {
        auto s = in_.string(*it, p);
        if (!s) break;
        bool found = false;
        std::string allowed;
        for (size_t i = 0; i < info->choices.size(); ++i) {
          if (*s == info->choices[i]) {
            info->set(sc_->rules_, static_cast<int>(i));
            found = true;
          }
          allowed += (i ? ", " : "") + std::string(info->choices[i]);
        }
        if (!found) in_.fail(p, "unknown value \"" + *s + "\" (allowed: " + allowed + ")");
        break;
      }
    }
  }
}

void ScenarioLoader::readCombatResultsTable(const json& v, const Path& path) {
  if (!v.is_array() || v.size() != kCrtRows) {
    in_.fail(path, "expected 8 rows (modified die 0..7) of 15 cells (odds 1:8 .. 8:1)");
    return;
  }
  for (size_t row = 0; row < v.size(); ++row) {
    const Path rp = JsonReader::child(path, row);
    if (!v[row].is_array() || v[row].size() != kCrtColumns) {
      in_.fail(rp, "expected 15 cells, for odds 1:8 .. 8:1");
      continue;
    }
    for (size_t col = 0; col < v[row].size(); ++col) {
      const Path cp = JsonReader::child(rp, col);
      auto text = in_.string(v[row][col], cp);
      if (!text) continue;
      if (auto cell = parseCrtCell(*text)) {
        sc_->crt_[row][col] = *cell;
      } else {
        in_.fail(cp, "\"" + *text +
                         "\" is not a result like \"1*/0\" (attacker loss, optional *, "
                         "/, defender loss, optional *)");
      }
    }
  }
}

std::array<int, kNumSides> ScenarioLoader::readVp(const json& v, const Path& path) {
  std::array<int, kNumSides> vp = {};
  if (!in_.expectObject(v, path, {"blue", "orange"})) return vp;
  for (int s = 0; s < kNumSides; ++s) {
    const std::string key(sideColor(s));
    if (const json* x = JsonReader::optional(v, key)) {
      vp[static_cast<size_t>(s)] = in_.integer(*x, path + "/" + key, 0, 99).value_or(0);
    }
  }
  return vp;
}

bool ScenarioLoader::readKind(const json& obj, const Path& p, bool& passing) {
  const json* kind = in_.required(obj, p, "kind");
  auto s = kind ? in_.string(*kind, p + "/kind") : std::nullopt;
  if (s && (*s == "occupied" || *s == "passing")) {
    passing = *s == "passing";
    return true;
  }
  if (s) in_.fail(p + "/kind", "unknown kind \"" + *s + "\" (allowed: occupied, passing)");
  return false;
}

int ScenarioLoader::readSideColor(const json& v, const Path& path) {
  if (v.is_null()) return kNoSide;
  auto s = in_.string(v, path);
  if (!s) return kNoSide;
  if (auto side = parseSideColor(*s)) return *side;
  in_.fail(path, "unknown side \"" + *s + "\" (allowed: blue, orange, null)");
  return kNoSide;
}

void ScenarioLoader::readObjectives(const json& v, const Path& path) {
  if (!in_.expectArray(v, path)) return;
  if (v.size() > kMaxObjectives) {
    in_.fail(path, "at most " + std::to_string(kMaxObjectives) + " objectives");
    return;
  }
  for (size_t i = 0; i < v.size(); ++i) {
    const Path p = JsonReader::child(path, i);
    if (!in_.expectObject(v[i], p, {"hex", "kind", "vp", "owner"})) continue;
    Objective o;
    if (const json* h = in_.required(v[i], p, "hex")) o.cell = hexRef(*h, p + "/hex");
    readKind(v[i], p, o.passing);
    if (const json* vp = in_.required(v[i], p, "vp")) o.vp = readVp(*vp, p + "/vp");
    if (const json* owner = JsonReader::optional(v[i], "owner")) {
      if (!o.passing) in_.fail(p + "/owner", "only passing hexes have an owner (V-HEX-2)");
      o.initial_owner = readSideColor(*owner, p + "/owner");
    }
    for (const Objective& other : sc_->objectives_) {
      if (o.cell != kNoCell && other.cell == o.cell) {
        in_.fail(p + "/hex", "hex " + sc_->label(o.cell) + " is already an objective");
      }
    }
    if (o.cell != kNoCell) sc_->objectives_.push_back(o);
  }
}

void ScenarioLoader::readBalance(const json& v, const Path& path) {
  if (!in_.expectObject(v, path, {"vp_to", "vp", "measured"})) return;
  if (const json* m = JsonReader::optional(v, "measured")) readMeasured(*m, path + "/measured");
  const json* to = in_.required(v, path, "vp_to");
  const json* vp = in_.required(v, path, "vp");
  if (!to || !vp) return;
  const int side = readSideColor(*to, path + "/vp_to");
  if (to->is_null()) in_.fail(path + "/vp_to", "name the side that receives the handicap");
  constexpr double kMaxHandicap = 20;
  if (!vp->is_number()) {
    in_.fail(path + "/vp",
             "expected a number of victory points, found " + std::string(vp->type_name()));
    return;
  }
  const double points = vp->get<double>();
  if (!(points >= 0 && points <= kMaxHandicap) || points * 2 != static_cast<int>(points * 2)) {
    in_.fail(path + "/vp",
             "must be a whole or half number of victory points from 0 to 20, not " + vp->dump());
    return;
  }
  sc_->balance_ = {side, static_cast<int>(points * 2)};
}

void ScenarioLoader::readMeasured(const json& v, const Path& path) {
  if (!in_.expectArray(v, path)) return;
  for (size_t i = 0; i < v.size(); ++i) {
    const Path p = JsonReader::child(path, i);
    if (!in_.expectObject(v[i], p, {"agents", "blue", "orange", "draws", "seed"})) continue;
    BalanceMeasurement m;
    if (const json* a = in_.required(v[i], p, "agents")) {
      m.agents = in_.string(*a, p + "/agents").value_or("");
      if (a->is_string() && m.agents.empty()) in_.fail(p + "/agents", "name the agents");
    }
    constexpr int kMaxGames = 1000000;
    for (auto [key, count] : {std::pair{"blue", &m.blue}, std::pair{"orange", &m.orange},
                              std::pair{"draws", &m.draws}}) {
      if (const json* n = in_.required(v[i], p, key)) {
        *count = in_.integer(*n, p + "/" + key, 0, kMaxGames).value_or(0);
      }
    }
    if (m.blue + m.orange == 0 && v[i].contains("blue") && v[i].contains("orange")) {
      in_.fail(p, "a measurement needs at least one decisive game");
    }
    if (const json* seed = JsonReader::optional(v[i], "seed")) {
      if (seed->is_number_unsigned()) {
        m.seed = seed->get<uint64_t>();
      } else {
        in_.fail(p + "/seed", "expected a non-negative integer, found " + seed->dump());
      }
    }
    sc_->measured_.push_back(m);
  }
}

void ScenarioLoader::readZones(const json& v, const Path& path) {
  if (!in_.expectArray(v, path)) return;
  for (size_t i = 0; i < v.size(); ++i) {
    const Path p = JsonReader::child(path, i);
    if (!in_.expectObject(v[i], p, {"name", "hexes", "kind", "criterion", "vp"})) continue;
    Zone z;
    if (const json* n = in_.required(v[i], p, "name")) {
      z.name = in_.string(*n, p + "/name").value_or("");
    }
    if (const json* h = in_.required(v[i], p, "hexes")) z.cells = hexList(*h, p + "/hexes");
    if (z.cells.empty()) in_.fail(p + "/hexes", "a zone needs at least one hex");
    readKind(v[i], p, z.passing);
    if (const json* c = JsonReader::optional(v[i], "criterion")) {
      auto s = in_.string(*c, p + "/criterion");
      auto crit = s ? parseZoneCriterion(*s) : std::nullopt;
      if (crit) {
        z.criterion = *crit;
      } else if (s) {
        in_.fail(p + "/criterion",
                 "unknown criterion \"" + *s + "\" (allowed: majority, all, any)");
      }
    }
    if (const json* vp = in_.required(v[i], p, "vp")) z.vp = readVp(*vp, p + "/vp");
    sc_->zones_.push_back(std::move(z));
  }
}

void ScenarioLoader::readForts(const json& v, const Path& path) {
  if (!in_.expectArray(v, path)) return;
  for (size_t i = 0; i < v.size(); ++i) {
    const Path p = JsonReader::child(path, i);
    if (!in_.expectObject(v[i], p, {"hex", "control"})) continue;
    const json* h = in_.required(v[i], p, "hex");
    const CellId c = h ? hexRef(*h, p + "/hex") : kNoCell;
    if (c == kNoCell) continue;
    const int f = sc_->fortIndex(c);
    if (f < 0) {
      in_.fail(p + "/hex", "hex " + sc_->label(c) + " is not a fort");
      continue;
    }
    if (const json* ctl = in_.required(v[i], p, "control")) {
      sc_->fort_initial_control_[static_cast<size_t>(f)] = readSideColor(*ctl, p + "/control");
    }
  }
  if (static_cast<int>(sc_->fort_cells_.size()) > kMaxForts) {
    in_.fail("/map/terrain", "at most " + std::to_string(kMaxForts) + " forts");
  }
}

// Units placed at set-up need a zone with room for all of them (S-1, S-3).
void ScenarioLoader::checkPlacements() {
  for (int s = 0; s < kNumSides; ++s) {
    int waiting = 0;
    for (size_t u = 0; u < sc_->units_.size(); ++u) {
      const UnitInfo& unit = sc_->units_[u];
      if (unit.side != s || unit.start != kNoCell) continue;
      ++waiting;
      if (unit.proposed != kNoCell && !sc_->inSetupZone(s, unit.proposed)) {
        in_.fail(unit_paths_[u] + "/hex", "proposed hex " + sc_->label(unit.proposed) +
                                              " is outside the side's set-up zone (S-3)");
      }
    }
    int free_hexes = 0;
    for (CellId c : sc_->setupZone(s)) {
      bool taken = false;
      for (const UnitInfo& unit : sc_->units_) taken = taken || unit.start == c;
      if (!taken) ++free_hexes;
    }
    if (waiting > free_hexes) {
      in_.fail("/sides/" + std::to_string(s) + "/setup_zone",
               std::to_string(waiting) + " units are placed at set-up but the zone has only " +
                   std::to_string(free_hexes) + " free hexes");
    }
  }
}

std::shared_ptr<const Scenario> parseScenario(std::string_view json_text,
                                              const std::string& source) {
  std::vector<Problem> problems;
  auto doc = parseJsonText(json_text, problems);
  std::shared_ptr<Scenario> sc;
  if (doc && isScenarioVariant(*doc)) {
    if (auto full = expandScenarioVariant(*doc, problems)) {
      sc = ScenarioLoader(problems).load(*full, full->dump(2));
    }
  } else if (doc) {
    sc = ScenarioLoader(problems).load(*doc, json_text);
  }
  if (!sc || !problems.empty()) throw ValidationError(source, std::move(problems));
  return sc;
}

std::shared_ptr<const Scenario> loadScenarioFile(const std::string& path) {
  return parseScenario(readTextFile(path, "scenario file"), printablePath(path));
}

std::string ruleSwitchesJson(const RuleSwitches& rules) {
  json out = json::object();
  for (const RuleSwitchInfo& info : ruleSwitchTable()) {
    const int v = info.get(rules);
    switch (info.kind) {
      case RuleSwitchInfo::Kind::kBool:
        out[info.name] = v != 0;
        break;
      case RuleSwitchInfo::Kind::kInt:
        out[info.name] = v;
        break;
      case RuleSwitchInfo::Kind::kChoice:
        out[info.name] = info.choices[static_cast<size_t>(v)];
        break;
    }
  }
  return out.dump();
}

}  // namespace morne::env
