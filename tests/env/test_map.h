#pragma once
// TestMap: builds small scenarios for rule tests in the axial coordinates of the worked
// examples ((0,0) is the centre of a 13x13 odd-r map, so every example fits with room around
// it). It writes the scenario JSON and loads it through the real loader, so tests exercise the
// same path as users' files.

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "env/hex.h"
#include "env/scenario.h"

namespace morne::test {

struct UnitSpec {
  std::string id = {};
  int side = 0;
  std::string type = "infantry";
  env::Hex at = {};
  int vc = 3;
  int mo = 4;
  int ma = 3;
  std::string corps = {};        // empty: independent
  int radius = 3;                // generals
  int vt = 4;                    // artillery
  int range = 3;                 // artillery
  bool placed_at_setup = false;  // "placement": "zone"; `at` is then ignored
  int morale_factor = 0;         // variant modules: written when > 0
  std::string quality = {};      // variant modules: written when not empty
  std::string cavalry = {};      // variant modules: "light" or "heavy", written when not empty
};

class TestMap {
 public:
  static constexpr int kSize = 13;

  TestMap();

  // The map label of test coordinate (q, r).
  static std::string label(env::Hex h);
  static std::string label(int q, int r) { return label(env::Hex{q, r}); }

  TestMap& terrain(env::Hex h, const std::string& name);
  TestMap& level(env::Hex h, int level);
  TestMap& water(env::Hex a, env::Hex b, const std::string& type);
  TestMap& crossing(env::Hex a, env::Hex b, const std::string& type);
  TestMap& track(env::Hex a, env::Hex b);
  TestMap& road(const std::vector<env::Hex>& hexes);
  TestMap& unit(const UnitSpec& u);
  TestMap& corps(int side, const std::string& id);
  TestMap& setupZone(int side, const std::vector<env::Hex>& hexes);
  TestMap& objective(env::Hex h, bool passing, int vp_blue, int vp_orange);
  TestMap& rule(const std::string& name, const nlohmann::json& value);
  TestMap& turns(int n);
  TestMap& homeEdge(int side, const std::string& edge);

  // The scenario JSON as built so far.
  nlohmann::json toJson() const;
  // Loads it (throws ValidationError like any scenario).
  std::shared_ptr<const env::Scenario> build() const;

 private:
  std::vector<std::vector<std::string>> terrain_;
  std::vector<std::vector<int>> level_;
  nlohmann::json water_ = nlohmann::json::array();
  nlohmann::json crossings_ = nlohmann::json::array();
  nlohmann::json tracks_ = nlohmann::json::array();
  nlohmann::json roads_ = nlohmann::json::array();
  nlohmann::json units_[2] = {nlohmann::json::array(), nlohmann::json::array()};
  nlohmann::json corps_[2] = {nlohmann::json::array(), nlohmann::json::array()};
  nlohmann::json zones_[2] = {nlohmann::json::array(), nlohmann::json::array()};
  nlohmann::json objectives_ = nlohmann::json::array();
  nlohmann::json rules_ = nlohmann::json::object();
  int turns_ = 3;
  std::string home_edges_[2] = {};
};

// The cell of test coordinate h in a scenario built by TestMap.
env::CellId cellOf(const env::Scenario& sc, env::Hex h);

// The unit index of an id (asserts it exists).
int unitOf(const env::Scenario& sc, const std::string& id);

// A state of `sc` in `phase` for `side`, with every unit at its start, the command check done
// (every unit in command unless its general is out of range) and movement points set as at
// the start of the movement phase. For precise rule tests, without running the turn sequence.
env::GameState stateIn(const env::Scenario& sc, env::Phase phase, int side);

}  // namespace morne::test
