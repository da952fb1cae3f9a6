#include "tests/env/test_map.h"

#include <cassert>

#include "env/io/scenario_json.h"
#include "env/rules.h"
#include "env/turn.h"

namespace morne::test {

using nlohmann::json;

namespace {

// Test coordinate (0,0) is the centre hex (column 6, row 6) of the 13x13 odd-r map, whose
// axial coordinate is (3, 6); test coordinates are axial offsets from it.
constexpr env::Hex kOrigin{3, 6};

void offsetOf(env::Hex h, int& col, int& row) {
  env::axialToOffset(h + kOrigin, env::OffsetLayout::kOddR, col, row);
  assert(col >= 0 && row >= 0 && col < TestMap::kSize && row < TestMap::kSize);
}

json pair(env::Hex a, env::Hex b) { return json::array({TestMap::label(a), TestMap::label(b)}); }

}  // namespace

TestMap::TestMap()
    : terrain_(kSize, std::vector<std::string>(kSize, ".")),
      level_(kSize, std::vector<int>(kSize, 0)) {}

std::string TestMap::label(env::Hex h) {
  int col = 0;
  int row = 0;
  offsetOf(h, col, row);
  return env::offsetLabel(col, row);
}

TestMap& TestMap::terrain(env::Hex h, const std::string& name) {
  int col = 0;
  int row = 0;
  offsetOf(h, col, row);
  terrain_[static_cast<size_t>(row)][static_cast<size_t>(col)] = name;
  return *this;
}

TestMap& TestMap::level(env::Hex h, int level) {
  int col = 0;
  int row = 0;
  offsetOf(h, col, row);
  level_[static_cast<size_t>(row)][static_cast<size_t>(col)] = level;
  return *this;
}

TestMap& TestMap::water(env::Hex a, env::Hex b, const std::string& type) {
  water_.push_back({{"type", type}, {"hexsides", json::array({pair(a, b)})}});
  return *this;
}

TestMap& TestMap::crossing(env::Hex a, env::Hex b, const std::string& type) {
  crossings_.push_back({{"type", type}, {"hexside", pair(a, b)}});
  return *this;
}

TestMap& TestMap::track(env::Hex a, env::Hex b) {
  tracks_.push_back(pair(a, b));
  return *this;
}

TestMap& TestMap::road(const std::vector<env::Hex>& hexes) {
  json r = json::array();
  for (env::Hex h : hexes) r.push_back(label(h));
  roads_.push_back(r);
  return *this;
}

TestMap& TestMap::unit(const UnitSpec& u) {
  json j = {{"id", u.id}, {"type", u.type}, {"vc", u.vc}, {"ma", u.ma}};
  if (u.placed_at_setup) {
    j["placement"] = "zone";
  } else {
    j["hex"] = label(u.at);
  }
  if (u.type != "general") j["mo"] = u.mo;
  if (u.type == "general") j["radius"] = u.radius;
  if (u.type == "foot_artillery" || u.type == "horse_artillery") {
    j["vt"] = u.vt;
    j["range"] = u.range;
  }
  if (!u.corps.empty()) j["corps"] = u.corps;
  if (u.morale_factor > 0) j["morale_factor"] = u.morale_factor;
  if (!u.quality.empty()) j["quality"] = u.quality;
  if (!u.cavalry.empty()) j["cavalry"] = u.cavalry;
  units_[u.side].push_back(j);
  return *this;
}

TestMap& TestMap::homeEdge(int side, const std::string& edge) {
  home_edges_[side] = edge;
  return *this;
}

TestMap& TestMap::corps(int side, const std::string& id) {
  corps_[side].push_back({{"id", id}});
  return *this;
}

TestMap& TestMap::setupZone(int side, const std::vector<env::Hex>& hexes) {
  for (env::Hex h : hexes) zones_[side].push_back(label(h));
  return *this;
}

TestMap& TestMap::objective(env::Hex h, bool passing, int vp_blue, int vp_orange) {
  objectives_.push_back({{"hex", label(h)},
                         {"kind", passing ? "passing" : "occupied"},
                         {"vp", {{"blue", vp_blue}, {"orange", vp_orange}}}});
  return *this;
}

TestMap& TestMap::rule(const std::string& name, const json& value) {
  rules_[name] = value;
  return *this;
}

TestMap& TestMap::turns(int n) {
  turns_ = n;
  return *this;
}

json TestMap::toJson() const {
  nlohmann::json terrain = nlohmann::json::array();
  nlohmann::json elevation = nlohmann::json::array();
  for (int row = 0; row < kSize; ++row) {
    std::string t;
    std::string e;
    for (int col = 0; col < kSize; ++col) {
      t += (col ? " " : "") + terrain_[static_cast<size_t>(row)][static_cast<size_t>(col)];
      e += (col ? " " : "") +
           std::to_string(level_[static_cast<size_t>(row)][static_cast<size_t>(col)]);
    }
    terrain.push_back(t);
    elevation.push_back(e);
  }
  nlohmann::json sides = nlohmann::json::array();
  for (int s = 0; s < 2; ++s) {
    nlohmann::json side = {{"name", s == 0 ? "Blue" : "Orange"}, {"units", units_[s]}};
    if (!corps_[s].empty()) side["corps"] = corps_[s];
    if (!zones_[s].empty()) side["setup_zone"] = zones_[s];
    if (!home_edges_[s].empty()) side["home_edge"] = home_edges_[s];
    sides.push_back(side);
  }
  return {{"format", "morne-scenario/1"},
          {"name", "test"},
          {"turns", turns_},
          {"map",
           {{"width", kSize},
            {"height", kSize},
            {"terrain", terrain},
            {"elevation", elevation},
            {"watercourses", water_},
            {"crossings", crossings_},
            {"tracks", tracks_},
            {"roads", roads_}}},
          {"sides", sides},
          {"objectives", objectives_},
          {"rules", rules_}};
}

std::shared_ptr<const env::Scenario> TestMap::build() const {
  return env::parseScenario(toJson().dump(), "test map");
}

env::CellId cellOf(const env::Scenario& sc, env::Hex h) {
  return sc.cellOfLabel(TestMap::label(h));
}

int unitOf(const env::Scenario& sc, const std::string& id) {
  const int u = sc.unitIndex(id);
  assert(u >= 0);
  return u;
}

env::GameState stateIn(const env::Scenario& sc, env::Phase phase, int side) {
  env::GameState s = env::newGame(sc);
  env::setHeader(s, 1, side, phase);
  for (int u = 0; u < s.num_units; ++u) {
    if (s.onMap(u)) env::setUnitFlags(s, u, 0);
  }
  env::checkCommand(s, nullptr);
  if (phase == env::Phase::kMovement) env::prepareMovementPhase(s);
  return s;
}

}  // namespace morne::test
