#include <cctype>
#include <sstream>

#include "env/io/scenario_loader.h"

namespace morne::env {

using nlohmann::json;

namespace {

// Splits a map row into tokens: whitespace-separated if it contains whitespace, else one
// token per character.
std::vector<std::string> rowTokens(const std::string& row) {
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

}  // namespace

bool ScenarioLoader::readMap(const json& m, const Path& path) {
  if (!in_.expectObject(m, path,
                        {"width", "height", "layout", "terrain", "elevation", "watercourses",
                         "crossings", "roads", "tracks"})) {
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
  // The grid stands: what follows is checked against it even when a hex's terrain or level was
  // wrong, so that one run reports every problem (the scenario is refused all the same).
  if (const json* v = JsonReader::optional(m, "watercourses")) readWatercourses(*v, path);
  if (const json* v = JsonReader::optional(m, "crossings")) readCrossings(*v, path);
  if (const json* v = JsonReader::optional(m, "tracks")) readTracks(*v, path);
  if (const json* v = JsonReader::optional(m, "roads")) readRoads(*v, path);
  return true;
}

bool ScenarioLoader::readTerrain(const json& m, const Path& path) {
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
  bool whole_rows = true;  // a row of the wrong width leaves the grid unusable
  for (int row = 0; row < sc_->height_; ++row) {
    const Path rp = JsonReader::child(tp, static_cast<size_t>(row));
    auto text = in_.string((*rows)[static_cast<size_t>(row)], rp);
    if (!text) continue;
    const auto tokens = rowTokens(*text);
    if (static_cast<int>(tokens.size()) != sc_->width_) {
      in_.fail(rp, "row " + std::to_string(row + 1) + " has " + std::to_string(tokens.size()) +
                       " hexes, the map width is " + std::to_string(sc_->width_));
      whole_rows = false;
      continue;
    }
    for (int col = 0; col < sc_->width_; ++col) {
      const std::string& code = tokens[static_cast<size_t>(col)];
      if (code == "-") continue;  // not part of the map (M-HEX-3)
      auto t = code.size() == 1 ? parseTerrainCode(code[0]) : parseTerrainName(code);
      if (!t) {  // reported; the hex stays on the map (as clear) so the rest can be checked
        in_.fail(rp, "hex " + offsetLabel(col, row) + ": unknown terrain code \"" + code + "\"");
        t = Terrain::kClear;
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
  if (sc_->hexes_.empty()) {
    if (in_.count() == before) in_.fail(tp, "the map has no hexes");
    return false;
  }
  return whole_rows;
}

void ScenarioLoader::readElevation(const json& m, const Path& path) {
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

void ScenarioLoader::buildHexsides() {
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
CellId ScenarioLoader::hexRef(const json& v, const Path& path) {
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

ScenarioLoader::SideRef ScenarioLoader::hexsideRef(const json& v, const Path& path) {
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

void ScenarioLoader::readWatercourses(const json& v, const Path& path) {
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
        in_.fail(p + "/type",
                 "unknown watercourse \"" + *tname + "\" (allowed: stream, river, major_river)");
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

void ScenarioLoader::readCrossings(const json& v, const Path& path) {
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
      in_.fail(p, "a " + *tname + " needs a watercourse on hexside " + sideName(s) + " (M-SIDE-1)");
    } else if (view(s).crossing != Crossing::kNone) {
      in_.fail(p, "hexside " + sideName(s) + " already has a crossing");
    } else {
      bothViews(s, [&](Hexside& h) { h.crossing = crossing; });
    }
  }
}

void ScenarioLoader::readTracks(const json& v, const Path& path) {
  const Path tp = path + "/tracks";
  if (!in_.expectArray(v, tp)) return;
  for (size_t i = 0; i < v.size(); ++i) {
    const Path p = JsonReader::child(tp, i);
    const SideRef s = hexsideRef(v[i], p);
    if (s.cell == kNoCell) continue;
    if (!view(s).isCliff()) {
      in_.fail(p, "a track must cross a cliff (two or more contour lines); hexside " + sideName(s) +
                      " has " + std::to_string(std::abs(view(s).climb)) + " (M-TER-4)");
      continue;
    }
    bothViews(s, [](Hexside& h) { h.track = true; });
  }
}

void ScenarioLoader::readRoads(const json& v, const Path& path) {
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

std::string ScenarioLoader::sideName(SideRef s) {
  return sc_->label(s.cell) + "-" + sc_->label(view(s).neighbor);
}

}  // namespace morne::env
