#include "env/scenario_json.h"

#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "env/json_reader.h"

namespace morne::env {

using nlohmann::json;

std::optional<json> parseJsonText(std::string_view text, std::vector<Problem>& problems) {
  try {
    return json::parse(text.begin(), text.end());
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
    problems.push_back({"", "line " + std::to_string(line) + ", column " +
                                std::to_string(column) + ": invalid JSON: " + what});
    return std::nullopt;
  }
}

// Builds a Scenario from a parsed document. One instance per load.
class ScenarioLoader {
 public:
  explicit ScenarioLoader(std::vector<Problem>& problems) : in_(problems) {}

  std::shared_ptr<Scenario> load(const json& doc, std::string_view text) {
    sc_ = std::make_shared<Scenario>();
    sc_->source_text_ = std::string(text);
    if (!in_.expectObject(doc, "", {"format", "name", "title", "description", "turns", "map",
                                    "sides", "objectives", "zones", "forts", "rules"})) {
      return nullptr;
    }
    readHeader(doc);
    if (const json* rules = JsonReader::optional(doc, "rules")) readRules(*rules, "/rules");
    const json* map = in_.required(doc, "", "map");
    if (!map || !readMap(*map, "/map")) return nullptr;  // everything else refers to the map
    if (const json* sides = in_.required(doc, "", "sides")) readSides(*sides, "/sides");
    if (const json* v = JsonReader::optional(doc, "objectives")) readObjectives(*v, "/objectives");
    if (const json* v = JsonReader::optional(doc, "zones")) readZones(*v, "/zones");
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

 private:
  using Path = std::string;

  void readHeader(const json& doc) {
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

  void readRules(const json& v, const Path& path) {
    if (!v.is_object()) {
      in_.fail(path, "expected an object of rule switches");
      return;
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
      const Path p = JsonReader::child(path, it.key());
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

  // Splits a map row into tokens: whitespace-separated if it contains whitespace, else one
  // token per character.
  static std::vector<std::string> rowTokens(const std::string& row) {
    std::vector<std::string> tokens;
    const bool spaced = row.find_first_of(" \t") != std::string::npos;
    if (spaced) {
      std::istringstream ss(row);
      for (std::string t; ss >> t;) tokens.push_back(t);
    } else {
      for (char c : row) tokens.emplace_back(1, c);
    }
    return tokens;
  }

  bool readMap(const json& m, const Path& path) {
    const size_t before = in_.count();
    if (!in_.expectObject(m, path, {"width", "height", "layout", "terrain", "elevation",
                                    "watercourses", "crossings", "roads", "tracks"})) {
      return false;
    }
    const json* w = in_.required(m, path, "width");
    const json* h = in_.required(m, path, "height");
    const auto width = w ? in_.integer(*w, path + "/width", 1, 99) : std::nullopt;
    const auto height = h ? in_.integer(*h, path + "/height", 1, 99) : std::nullopt;
    if (!width || !height) return false;
    sc_->width_ = *width;
    sc_->height_ = *height;
    if (const json* l = JsonReader::optional(m, "layout")) {
      auto s = in_.string(*l, path + "/layout");
      if (s && *s == "odd-r") {
        sc_->layout_ = OffsetLayout::kOddR;
      } else if (s && *s == "even-r") {
        sc_->layout_ = OffsetLayout::kEvenR;
      } else if (s) {
        in_.fail(path + "/layout", "unknown layout \"" + *s + "\" (allowed: odd-r, even-r)");
      }
    }
    if (!readTerrain(m, path)) return false;
    readElevation(m, path);
    buildHexsides();
    if (in_.count() != before) return false;
    if (const json* v = JsonReader::optional(m, "watercourses")) readWatercourses(*v, path);
    if (const json* v = JsonReader::optional(m, "crossings")) readCrossings(*v, path);
    if (const json* v = JsonReader::optional(m, "tracks")) readTracks(*v, path);
    if (const json* v = JsonReader::optional(m, "roads")) readRoads(*v, path);
    return in_.count() == before;
  }

  bool readTerrain(const json& m, const Path& path) {
    const size_t before = in_.count();
    const json* rows = in_.required(m, path, "terrain");
    const Path tp = path + "/terrain";
    if (!rows || !in_.expectArray(*rows, tp)) return false;
    if (static_cast<int>(rows->size()) != sc_->height_) {
      in_.fail(tp, "has " + std::to_string(rows->size()) + " rows, the map height is " +
                       std::to_string(sc_->height_));
      return false;
    }
    sc_->offset_to_cell_.assign(static_cast<size_t>(sc_->width_ * sc_->height_), kNoCell);
    for (int row = 0; row < sc_->height_; ++row) {
      const Path rp = JsonReader::child(tp, static_cast<size_t>(row));
      auto text = in_.string((*rows)[static_cast<size_t>(row)], rp);
      if (!text) continue;
      const auto tokens = rowTokens(*text);
      if (static_cast<int>(tokens.size()) != sc_->width_) {
        in_.fail(rp, "row " + std::to_string(row + 1) + " has " + std::to_string(tokens.size()) +
                         " hexes, the map width is " + std::to_string(sc_->width_));
        continue;
      }
      for (int col = 0; col < sc_->width_; ++col) {
        const std::string& code = tokens[static_cast<size_t>(col)];
        if (code == "-") continue;  // not part of the map (M-HEX-3)
        const auto t = code.size() == 1 ? parseTerrainCode(code[0]) : parseTerrainName(code);
        if (!t) {
          in_.fail(rp, "hex " + offsetLabel(col, row) + ": unknown terrain code \"" + code + "\"");
          continue;
        }
        if (static_cast<int>(sc_->hexes_.size()) >= kMaxCells) {
          in_.fail(tp, "the map has more than " + std::to_string(kMaxCells) +
                           " hexes (build option MORNE_MAX_CELLS)");
          return false;
        }
        sc_->offset_to_cell_[static_cast<size_t>(row * sc_->width_ + col)] =
            static_cast<CellId>(sc_->hexes_.size());
        sc_->hexes_.push_back(offsetToAxial(col, row, sc_->layout_));
        sc_->terrain_.push_back(*t);
      }
    }
    if (in_.count() == before && sc_->hexes_.empty()) in_.fail(tp, "the map has no hexes");
    return in_.count() == before;
  }

  void readElevation(const json& m, const Path& path) {
    sc_->level_.assign(sc_->hexes_.size(), 0);
    const json* rows = JsonReader::optional(m, "elevation");
    if (!rows) return;
    const Path ep = path + "/elevation";
    if (!in_.expectArray(*rows, ep)) return;
    if (static_cast<int>(rows->size()) != sc_->height_) {
      in_.fail(ep, "has " + std::to_string(rows->size()) + " rows, the map height is " +
                       std::to_string(sc_->height_));
      return;
    }
    for (int row = 0; row < sc_->height_; ++row) {
      const Path rp = JsonReader::child(ep, static_cast<size_t>(row));
      auto text = in_.string((*rows)[static_cast<size_t>(row)], rp);
      if (!text) continue;
      const auto tokens = rowTokens(*text);
      if (static_cast<int>(tokens.size()) != sc_->width_) {
        in_.fail(rp, "row " + std::to_string(row + 1) + " has " + std::to_string(tokens.size()) +
                         " levels, the map width is " + std::to_string(sc_->width_));
        continue;
      }
      for (int col = 0; col < sc_->width_; ++col) {
        const std::string& tok = tokens[static_cast<size_t>(col)];
        const CellId c = sc_->offset_to_cell_[static_cast<size_t>(row * sc_->width_ + col)];
        if (tok == "-") {
          if (c != kNoCell) in_.fail(rp, "hex " + offsetLabel(col, row) + " needs a level");
          continue;
        }
        int level = 0;
        bool valid = !tok.empty() && tok.size() <= 2;
        size_t i = tok[0] == '-' ? 1 : 0;
        valid = valid && i < tok.size();
        for (size_t k = i; valid && k < tok.size(); ++k) {
          valid = std::isdigit(static_cast<unsigned char>(tok[k])) != 0;
          if (valid) level = level * 10 + (tok[k] - '0');
        }
        if (!valid) {
          in_.fail(rp, "hex " + offsetLabel(col, row) + ": level \"" + tok +
                           "\" is not an integer in -9..9");
          continue;
        }
        if (c != kNoCell) sc_->level_[static_cast<size_t>(c)] = i ? -level : level;
      }
    }
  }

  void buildHexsides() {
    const size_t n = sc_->hexes_.size();
    sc_->hexsides_.assign(n * kNumDirections, Hexside{});
    for (size_t c = 0; c < n; ++c) {
      for (int d = 0; d < kNumDirections; ++d) {
        Hexside& h = sc_->hexsides_[c * kNumDirections + static_cast<size_t>(d)];
        h.neighbor = sc_->cellAt(sc_->hexes_[c] + kHexDirections[static_cast<size_t>(d)]);
        if (h.neighbor != kNoCell) {
          const int climb = sc_->level_[static_cast<size_t>(h.neighbor)] - sc_->level_[c];
          h.climb = static_cast<int8_t>(climb);
        }
      }
    }
  }

  // A hex reference; reports and returns kNoCell if it is not a label of an existing hex.
  CellId hexRef(const json& v, const Path& path) {
    auto s = in_.string(v, path);
    if (!s) return kNoCell;
    int col = 0;
    int row = 0;
    if (!parseOffsetLabel(*s, col, row)) {
      in_.fail(path, "\"" + *s + "\" is not a hex label (four digits, column then row)");
      return kNoCell;
    }
    const CellId c = sc_->cellOfLabel(*s);
    if (c == kNoCell) {
      in_.fail(path, "hex " + *s + " is not on the map");
    }
    return c;
  }

  // A pair of adjacent hexes; returns the hexside seen from the first (and its direction).
  struct SideRef {
    CellId cell = kNoCell;
    int dir = -1;
  };
  SideRef hexsideRef(const json& v, const Path& path) {
    if (!v.is_array() || v.size() != 2) {
      in_.fail(path, "expected a pair of hex labels [\"CCRR\", \"CCRR\"]");
      return {};
    }
    const CellId a = hexRef(v[0], JsonReader::child(path, size_t{0}));
    const CellId b = hexRef(v[1], JsonReader::child(path, size_t{1}));
    if (a == kNoCell || b == kNoCell) return {};
    const auto dir = directionBetween(sc_->hexOf(a), sc_->hexOf(b));
    if (!dir) {
      in_.fail(path, "hexes " + sc_->label(a) + " and " + sc_->label(b) + " are not adjacent");
      return {};
    }
    return {a, *dir};
  }

  // Applies `fn` to both views of a hexside.
  template <typename Fn>
  void bothViews(SideRef s, Fn fn) {
    Hexside& h = sc_->hexsides_[static_cast<size_t>(s.cell) * kNumDirections +
                                static_cast<size_t>(s.dir)];
    Hexside& back = sc_->hexsides_[static_cast<size_t>(h.neighbor) * kNumDirections +
                                   static_cast<size_t>(oppositeDirection(s.dir))];
    fn(h);
    fn(back);
  }
  Hexside& view(SideRef s) {
    return sc_->hexsides_[static_cast<size_t>(s.cell) * kNumDirections +
                          static_cast<size_t>(s.dir)];
  }

  void readWatercourses(const json& v, const Path& path) {
    const Path wp = path + "/watercourses";
    if (!in_.expectArray(v, wp)) return;
    for (size_t i = 0; i < v.size(); ++i) {
      const Path p = JsonReader::child(wp, i);
      if (!in_.expectObject(v[i], p, {"type", "hexsides"})) continue;
      const json* type = in_.required(v[i], p, "type");
      auto tname = type ? in_.string(*type, p + "/type") : std::nullopt;
      Water water = Water::kNone;
      if (tname) {
        water = parseWaterName(*tname).value_or(Water::kNone);
        if (water == Water::kNone) {
          in_.fail(p + "/type", "unknown watercourse \"" + *tname +
                                    "\" (allowed: stream, river, major_river)");
        }
      }
      const json* sides = in_.required(v[i], p, "hexsides");
      if (!sides || !in_.expectArray(*sides, p + "/hexsides")) continue;
      for (size_t k = 0; k < sides->size(); ++k) {
        const Path sp = JsonReader::child(p + "/hexsides", k);
        const SideRef s = hexsideRef((*sides)[k], sp);
        if (s.cell == kNoCell || water == Water::kNone) continue;
        if (view(s).water != Water::kNone) {
          in_.fail(sp, "hexside " + sideName(s) + " already carries a watercourse (M-SIDE-1)");
          continue;
        }
        bothViews(s, [&](Hexside& h) { h.water = water; });
      }
    }
  }

  void readCrossings(const json& v, const Path& path) {
    const Path cp = path + "/crossings";
    if (!in_.expectArray(v, cp)) return;
    for (size_t i = 0; i < v.size(); ++i) {
      const Path p = JsonReader::child(cp, i);
      if (!in_.expectObject(v[i], p, {"type", "hexside"})) continue;
      const json* type = in_.required(v[i], p, "type");
      auto tname = type ? in_.string(*type, p + "/type") : std::nullopt;
      Crossing crossing = Crossing::kNone;
      if (tname) {
        crossing = parseCrossingName(*tname).value_or(Crossing::kNone);
        if (crossing == Crossing::kNone) {
          in_.fail(p + "/type", "unknown crossing \"" + *tname + "\" (allowed: bridge, ford)");
        }
      }
      const json* side = in_.required(v[i], p, "hexside");
      if (!side) continue;
      const SideRef s = hexsideRef(*side, p + "/hexside");
      if (s.cell == kNoCell || crossing == Crossing::kNone) continue;
      if (view(s).water == Water::kNone) {
        in_.fail(p, "a " + *tname + " needs a watercourse on hexside " + sideName(s) +
                        " (M-SIDE-1)");
      } else if (view(s).crossing != Crossing::kNone) {
        in_.fail(p, "hexside " + sideName(s) + " already has a crossing");
      } else {
        bothViews(s, [&](Hexside& h) { h.crossing = crossing; });
      }
    }
  }

  void readTracks(const json& v, const Path& path) {
    const Path tp = path + "/tracks";
    if (!in_.expectArray(v, tp)) return;
    for (size_t i = 0; i < v.size(); ++i) {
      const Path p = JsonReader::child(tp, i);
      const SideRef s = hexsideRef(v[i], p);
      if (s.cell == kNoCell) continue;
      if (!view(s).isCliff()) {
        in_.fail(p, "a track must cross a cliff (two or more contour lines); hexside " +
                        sideName(s) + " has " + std::to_string(std::abs(view(s).climb)) +
                        " (M-TER-4)");
        continue;
      }
      bothViews(s, [](Hexside& h) { h.track = true; });
    }
  }

  void readRoads(const json& v, const Path& path) {
    const Path rp = path + "/roads";
    if (!in_.expectArray(v, rp)) return;
    for (size_t i = 0; i < v.size(); ++i) {
      const Path p = JsonReader::child(rp, i);
      if (!in_.expectArray(v[i], p)) continue;
      if (v[i].size() < 2) {
        in_.fail(p, "a road needs at least two hexes");
        continue;
      }
      for (size_t k = 0; k + 1 < v[i].size(); ++k) {
        const json pair = json::array({v[i][k], v[i][k + 1]});
        const SideRef s = hexsideRef(pair, JsonReader::child(p, k + 1));
        if (s.cell == kNoCell) continue;
        const Hexside& h = view(s);
        const bool river = h.water == Water::kRiver || h.water == Water::kMajorRiver;
        if ((river && h.crossing == Crossing::kNone) || (h.isCliff() && !h.track)) {
          in_.fail(JsonReader::child(p, k + 1),
                   "the road crosses hexside " + sideName(s) +
                       ", which no unit may cross (unbridged river or cliff without track)");
          continue;
        }
        bothViews(s, [](Hexside& hs) { hs.road = true; });
      }
    }
  }

  std::string sideName(SideRef s) {
    return sc_->label(s.cell) + "-" + sc_->label(view(s).neighbor);
  }

  void readSides(const json& v, const Path& path) {
    if (!in_.expectArray(v, path)) return;
    if (v.size() != kNumSides) {
      in_.fail(path, "expected exactly two sides (first player, then second player)");
      return;
    }
    for (size_t s = 0; s < kNumSides; ++s) {
      const Path p = JsonReader::child(path, s);
      const json& side = v[s];
      if (!in_.expectObject(side, p, {"name", "corps", "units", "setup_zone", "entry_hexes"})) {
        continue;
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

  std::vector<CellId> hexList(const json& v, const Path& path) {
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

  void readCorps(const json& v, const Path& path, int side) {
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

  void readUnits(const json& v, const Path& path, int side) {
    if (!in_.expectArray(v, path)) return;
    for (size_t i = 0; i < v.size(); ++i) {
      const Path p = JsonReader::child(path, i);
      if (!in_.expectObject(v[i], p, {"id", "name", "type", "corps", "hex", "placement", "vc",
                                      "mo", "ma", "vt", "range", "radius"})) {
        continue;
      }
      UnitInfo u;
      u.side = side;
      readUnitFields(v[i], p, u);
      unit_paths_.push_back(p);
      sc_->units_.push_back(u);
    }
  }

  void readUnitFields(const json& obj, const Path& p, UnitInfo& u) {
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

  void checkUnitsAndGenerals() {
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
          in_.fail(unit_paths_[u] + "/id", "unit id \"" + unit.id + "\" is already used at " +
                                               unit_paths_[it->second]);
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
          in_.fail(unit_paths_[u] + "/corps",
                   "corps \"" + corps.id + "\" already has general \"" +
                       sc_->units_[static_cast<size_t>(corps.general)].id + "\" (CMD-1)");
        } else {
          corps.general = static_cast<int>(u);
        }
      }
    }
  }

  std::array<int, kNumSides> readVp(const json& v, const Path& path) {
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

  bool readKind(const json& obj, const Path& p, bool& passing) {
    const json* kind = in_.required(obj, p, "kind");
    auto s = kind ? in_.string(*kind, p + "/kind") : std::nullopt;
    if (s && (*s == "occupied" || *s == "passing")) {
      passing = *s == "passing";
      return true;
    }
    if (s) in_.fail(p + "/kind", "unknown kind \"" + *s + "\" (allowed: occupied, passing)");
    return false;
  }

  int readSideColor(const json& v, const Path& path) {
    if (v.is_null()) return kNoSide;
    auto s = in_.string(v, path);
    if (!s) return kNoSide;
    if (auto side = parseSideColor(*s)) return *side;
    in_.fail(path, "unknown side \"" + *s + "\" (allowed: blue, orange, null)");
    return kNoSide;
  }

  void readObjectives(const json& v, const Path& path) {
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

  void readZones(const json& v, const Path& path) {
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
          in_.fail(p + "/criterion", "unknown criterion \"" + *s + "\" (allowed: majority, all, any)");
        }
      }
      if (const json* vp = in_.required(v[i], p, "vp")) z.vp = readVp(*vp, p + "/vp");
      sc_->zones_.push_back(std::move(z));
    }
  }

  void readForts(const json& v, const Path& path) {
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
  void checkPlacements() {
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

  JsonReader in_;
  std::shared_ptr<Scenario> sc_;
  std::vector<Path> unit_paths_;
};

std::shared_ptr<const Scenario> parseScenario(std::string_view json_text,
                                              const std::string& source) {
  std::vector<Problem> problems;
  auto doc = parseJsonText(json_text, problems);
  std::shared_ptr<Scenario> sc;
  if (doc) sc = ScenarioLoader(problems).load(*doc, json_text);
  if (!sc || !problems.empty()) throw ValidationError(source, std::move(problems));
  return sc;
}

std::shared_ptr<const Scenario> loadScenarioFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw IoError(path + ": cannot open scenario file");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw IoError(path + ": read error");
  return parseScenario(text.str(), path);
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
