#include <map>

#include "env/io/scenario_loader.h"

namespace morne::env {

using nlohmann::json;

void ScenarioLoader::readSides(const json& v, const Path& path) {
  if (!in_.expectArray(v, path)) return;
  if (v.size() != kNumSides) {
    in_.fail(path, "expected exactly two sides (first player, then second player)");
    return;
  }
  for (size_t s = 0; s < kNumSides; ++s) {
    const Path p = JsonReader::child(path, s);
    const json& side = v[s];
    if (!in_.expectObject(side, p,
                          {"name", "corps", "units", "setup_zone", "entry_hexes", "home_edge"})) {
      continue;
    }
    if (const json* e = JsonReader::optional(side, "home_edge")) {
      if (auto name = in_.string(*e, p + "/home_edge")) {
        if (auto edge = parseMapEdgeName(*name)) {
          sc_->home_edges_[s] = *edge;
        } else {
          in_.fail(p + "/home_edge",
                   "unknown map edge \"" + *name + "\" (allowed: north, south, west, east)");
        }
      }
    }
    if (const json* n = in_.required(side, p, "name")) {
      if (auto name = in_.string(*n, p + "/name")) sc_->side_names_[s] = *name;
    }
    if (const json* z = JsonReader::optional(side, "setup_zone")) {
      sc_->setup_zones_[s] = hexList(*z, p + "/setup_zone");
    }
    if (const json* z = JsonReader::optional(side, "entry_hexes")) {
      sc_->entry_hexes_[s] = hexList(*z, p + "/entry_hexes");
    }
    if (const json* c = JsonReader::optional(side, "corps")) {
      readCorps(*c, p + "/corps", static_cast<int>(s));
    }
    if (const json* u = in_.required(side, p, "units")) {
      readUnits(*u, p + "/units", static_cast<int>(s));
    }
  }
  checkUnitsAndGenerals();
}

std::vector<CellId> ScenarioLoader::hexList(const json& v, const Path& path) {
  std::vector<CellId> cells;
  if (!in_.expectArray(v, path)) return cells;
  for (size_t i = 0; i < v.size(); ++i) {
    const CellId c = hexRef(v[i], JsonReader::child(path, i));
    if (c == kNoCell) continue;
    if (std::find(cells.begin(), cells.end(), c) != cells.end()) {
      in_.fail(JsonReader::child(path, i), "hex " + sc_->label(c) + " is listed twice");
      continue;
    }
    cells.push_back(c);
  }
  return cells;
}

void ScenarioLoader::readCorps(const json& v, const Path& path, int side) {
  if (!in_.expectArray(v, path)) return;
  for (size_t i = 0; i < v.size(); ++i) {
    const Path p = JsonReader::child(path, i);
    if (!in_.expectObject(v[i], p, {"id", "name"})) continue;
    Corps corps;
    corps.side = side;
    if (const json* id = in_.required(v[i], p, "id")) {
      if (auto s = in_.string(*id, p + "/id")) corps.id = *s;
    }
    if (const json* n = JsonReader::optional(v[i], "name")) {
      if (auto s = in_.string(*n, p + "/name")) corps.name = *s;
    }
    for (const Corps& other : sc_->corps_) {
      if (other.id == corps.id && other.side == side) {
        in_.fail(p + "/id", "corps id \"" + corps.id + "\" is used twice");
      }
    }
    sc_->corps_.push_back(corps);
  }
}

void ScenarioLoader::readUnits(const json& v, const Path& path, int side) {
  if (!in_.expectArray(v, path)) return;
  for (size_t i = 0; i < v.size(); ++i) {
    const Path p = JsonReader::child(path, i);
    if (!in_.expectObject(v[i], p,
                          {"id", "name", "type", "corps", "hex", "placement", "vc", "mo", "ma",
                           "vt", "range", "radius", "morale_factor", "quality", "cavalry"})) {
      continue;
    }
    UnitInfo u;
    u.side = side;
    readUnitFields(v[i], p, u);
    unit_paths_.push_back(p);
    sc_->units_.push_back(u);
  }
}

void ScenarioLoader::readUnitFields(const json& obj, const Path& p, UnitInfo& u) {
  if (const json* id = in_.required(obj, p, "id")) {
    if (auto s = in_.string(*id, p + "/id")) {
      u.id = *s;
      if (s->empty() || s->find_first_of(" \t\n\"") != std::string::npos) {
        in_.fail(p + "/id", "a unit id must be non-empty and contain no spaces or quotes");
      }
    }
  }
  u.name = u.id;
  if (const json* n = JsonReader::optional(obj, "name")) {
    if (auto s = in_.string(*n, p + "/name")) u.name = *s;
  }
  if (const json* t = in_.required(obj, p, "type")) {
    if (auto s = in_.string(*t, p + "/type")) {
      if (auto type = parseUnitTypeName(*s)) {
        u.type = *type;
      } else {
        in_.fail(p + "/type", "unknown unit type \"" + *s +
                                  "\" (allowed: infantry, light_infantry, cavalry, "
                                  "foot_artillery, horse_artillery, general, dromedary)");
        return;
      }
    }
  }
  const std::string what = std::string(unitTypeName(u.type));
  if (const json* vc = in_.required(obj, p, "vc")) {
    if (vc->is_number_integer() && vc->get<long long>() == 0) {
      in_.fail(p + "/vc", "a VC of 0 means an eliminated unit (U-ELIM-1); use 1..20");
    } else if (auto x = in_.integer(*vc, p + "/vc", 1, 20)) {
      u.vc = *x;
    }
  }
  const json* mo = JsonReader::optional(obj, "mo");
  if (isGeneral(u.type)) {
    if (mo) in_.fail(p + "/mo", "generals have no morale (U-ATTR-3)");
  } else if (!mo) {
    in_.fail(p, "missing required key \"mo\"");
  } else if (auto x = in_.integer(*mo, p + "/mo", 1, 9)) {
    u.mo = *x;
  }
  if (const json* f = JsonReader::optional(obj, "morale_factor")) {  // V-MOR-2
    if (isGeneral(u.type)) {
      in_.fail(p + "/morale_factor", "generals have no morale (U-ATTR-3)");
    } else if (auto x = in_.integer(*f, p + "/morale_factor", 2, 12)) {
      u.morale_factor = *x;
    }
  }
  if (const json* q = JsonReader::optional(obj, "quality")) {  // V-MOR-5
    if (auto name = in_.string(*q, p + "/quality")) {
      if (auto quality = parseQualityName(*name)) {
        u.quality = *quality;
      } else {
        in_.fail(p + "/quality", "unknown quality \"" + *name +
                                     "\" (allowed: guard, elite, veteran, regular, "
                                     "semi_regular, militia, irregular)");
      }
    }
  }
  if (const json* c = JsonReader::optional(obj, "cavalry")) {  // V-ROUT-6
    if (u.type != UnitType::kCavalry) {
      in_.fail(p + "/cavalry", "only cavalry units are light or heavy cavalry");
    } else if (auto name = in_.string(*c, p + "/cavalry")) {
      if (*name == "heavy" || *name == "light") {
        u.heavy_cavalry = *name == "heavy";
      } else {
        in_.fail(p + "/cavalry", "unknown cavalry \"" + *name + "\" (allowed: light, heavy)");
      }
    }
  }
  if (const json* ma = in_.required(obj, p, "ma")) {
    if (auto x = in_.integer(*ma, p + "/ma", 0, 20)) u.ma = *x;
  }
  const json* vt = JsonReader::optional(obj, "vt");
  const json* range = JsonReader::optional(obj, "range");
  if (isArtillery(u.type)) {
    if (!vt) in_.fail(p, "artillery needs a fire value \"vt\"");
    if (!range) in_.fail(p, "artillery needs a \"range\"");
    if (vt) u.vt = in_.integer(*vt, p + "/vt", 0, 10).value_or(0);
    if (range) u.range = in_.integer(*range, p + "/range", 1, 5).value_or(1);
  } else {
    if (vt) in_.fail(p + "/vt", "only artillery has a fire value (this unit is " + what + ")");
    if (range) in_.fail(p + "/range", "only artillery has a range (this unit is " + what + ")");
  }
  const json* radius = JsonReader::optional(obj, "radius");
  if (isGeneral(u.type)) {
    if (!radius) in_.fail(p, "a general needs a command \"radius\"");
    if (radius) u.radius = in_.integer(*radius, p + "/radius", 0, 10).value_or(0);
  } else if (radius) {
    in_.fail(p + "/radius", "only generals have a command radius (this unit is " + what + ")");
  }
  if (const json* c = JsonReader::optional(obj, "corps")) {
    if (auto s = in_.string(*c, p + "/corps")) {
      for (size_t k = 0; k < sc_->corps_.size(); ++k) {
        if (sc_->corps_[k].id == *s && sc_->corps_[k].side == u.side) u.corps = static_cast<int>(k);
      }
      if (u.corps < 0) in_.fail(p + "/corps", "no corps \"" + *s + "\" on this side");
    }
  } else if (isGeneral(u.type)) {
    in_.fail(p, "a general must name the corps it commands (\"corps\")");
  }
  bool placed_in_zone = false;
  if (const json* pl = JsonReader::optional(obj, "placement")) {
    auto s = in_.string(*pl, p + "/placement");
    if (s && *s == "zone") {
      placed_in_zone = true;
    } else if (s && *s != "fixed") {
      in_.fail(p + "/placement", "unknown placement \"" + *s + "\" (allowed: fixed, zone)");
    }
  }
  const json* hex = JsonReader::optional(obj, "hex");
  const CellId cell = hex ? hexRef(*hex, p + "/hex") : kNoCell;
  if (placed_in_zone) {
    u.proposed = cell;
  } else if (!hex) {
    in_.fail(p, "missing \"hex\" (or \"placement\": \"zone\" to place the unit at set-up)");
  } else {
    u.start = cell;
  }
}

void ScenarioLoader::checkUnitsAndGenerals() {
  if (static_cast<int>(sc_->units_.size()) > kMaxUnits) {
    in_.fail("/sides", "the scenario has " + std::to_string(sc_->units_.size()) +
                           " units; this build allows " + std::to_string(kMaxUnits) +
                           " (build option MORNE_MAX_UNITS)");
  }
  std::map<std::string, size_t> ids;
  std::map<CellId, size_t> occupied;
  for (size_t u = 0; u < sc_->units_.size(); ++u) {
    const UnitInfo& unit = sc_->units_[u];
    if (!unit.id.empty()) {
      auto [it, fresh] = ids.emplace(unit.id, u);
      if (!fresh) {
        in_.fail(unit_paths_[u] + "/id",
                 "unit id \"" + unit.id + "\" is already used at " + unit_paths_[it->second]);
      }
    }
    if (unit.start != kNoCell) {
      auto [it, fresh] = occupied.emplace(unit.start, u);
      if (!fresh) {
        in_.fail(unit_paths_[u] + "/hex", "hex " + sc_->label(unit.start) +
                                              " already holds unit \"" +
                                              sc_->units_[it->second].id + "\" (U-STACK-1)");
      }
    }
    if (isGeneral(unit.type) && unit.corps >= 0) {
      Corps& corps = sc_->corps_[static_cast<size_t>(unit.corps)];
      if (corps.general >= 0) {
        in_.fail(unit_paths_[u] + "/corps", "corps \"" + corps.id + "\" already has general \"" +
                                                sc_->units_[static_cast<size_t>(corps.general)].id +
                                                "\" (CMD-1)");
      } else {
        corps.general = static_cast<int>(u);
      }
    }
  }
}

}  // namespace morne::env
