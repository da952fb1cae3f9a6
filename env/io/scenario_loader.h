#pragma once
// Internal to env/: the class that builds a Scenario from its JSON document, shared by the
// three files that read the parts of the format (scenario_json.cpp: the document, rules and
// victory; scenario_map_json.cpp: the map; scenario_units_json.cpp: sides, corps, units).

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "env/io/json_reader.h"
#include "env/scenario.h"

namespace morne::env {

// Builds a Scenario from a parsed document, collecting every problem. One instance per load.
class ScenarioLoader {
 public:
  using json = nlohmann::json;
  explicit ScenarioLoader(std::vector<Problem>& problems) : in_(problems) {}

  // The validated scenario, or nullptr when problems were found.
  std::shared_ptr<Scenario> load(const json& doc, std::string_view text);

 private:
  using Path = std::string;

  // A hexside named by one of its hexes and the direction to the other.
  struct SideRef {
    CellId cell = kNoCell;
    int dir = -1;
  };

  // Applies `fn` to both views of a hexside.
  template <typename Fn>
  void bothViews(SideRef s, Fn fn) {
    Hexside& h =
        sc_->hexsides_[static_cast<size_t>(s.cell) * kNumDirections + static_cast<size_t>(s.dir)];
    Hexside& back = sc_->hexsides_[static_cast<size_t>(h.neighbor) * kNumDirections +
                                   static_cast<size_t>(oppositeDirection(s.dir))];
    fn(h);
    fn(back);
  }

  Hexside& view(SideRef s) {
    return sc_
        ->hexsides_[static_cast<size_t>(s.cell) * kNumDirections + static_cast<size_t>(s.dir)];
  }

  // --- the document, rules, victory (scenario_json.cpp) ---
  void readHeader(const json& doc);
  void readRules(const json& v, const Path& path);
  void readCombatResultsTable(const json& v, const Path& path);
  std::array<int, kNumSides> readVp(const json& v, const Path& path);
  // Reads "kind" ("occupied" or "passing") into `passing`; false if it is missing or unknown.
  bool readKind(const json& obj, const Path& p, bool& passing);
  // "blue", "orange" or null (kNoSide).
  int readSideColor(const json& v, const Path& path);
  void readObjectives(const json& v, const Path& path);
  void readZones(const json& v, const Path& path);
  void readForts(const json& v, const Path& path);
  // The victory-point handicap: {"vp_to": "blue" | "orange", "vp": 0 .. 20 in half points}.
  void readBalance(const json& v, const Path& path);
  // How it was measured: [{"agents", "blue", "orange", "draws", "seed"}, ...].
  void readMeasured(const json& v, const Path& path);
  // Units placed at set-up need a zone with room for all of them (S-1, S-3).
  void checkPlacements();

  // --- the map (scenario_map_json.cpp) ---
  // readMap and readTerrain return false when the hex grid itself cannot be built (dimensions,
  // rows); a wrong terrain code or level is reported and the rest still checked against the
  // grid, so that one run lists every problem.
  bool readMap(const json& m, const Path& path);
  bool readTerrain(const json& m, const Path& path);
  void readElevation(const json& m, const Path& path);
  // Creates both views of every hexside, with neighbours and contour lines.
  void buildHexsides();
  // A hex reference; reports and returns kNoCell if it is not a label of an existing hex.
  CellId hexRef(const json& v, const Path& path);
  // A pair of adjacent hex labels; reports and returns {kNoCell, -1} otherwise.
  SideRef hexsideRef(const json& v, const Path& path);
  void readWatercourses(const json& v, const Path& path);
  void readCrossings(const json& v, const Path& path);
  void readTracks(const json& v, const Path& path);
  void readRoads(const json& v, const Path& path);
  // "CCRR-CCRR" for messages.
  std::string sideName(SideRef s);

  // --- sides, corps, units (scenario_units_json.cpp) ---
  void readSides(const json& v, const Path& path);
  // A list of distinct hex labels.
  std::vector<CellId> hexList(const json& v, const Path& path);
  void readCorps(const json& v, const Path& path, int side);
  void readUnits(const json& v, const Path& path, int side);
  void readUnitFields(const json& obj, const Path& p, UnitInfo& u);
  // Unique ids, no stacking, at most one general per corps; sets each corps' general.
  void checkUnitsAndGenerals();

  JsonReader in_;
  std::shared_ptr<Scenario> sc_;
  std::vector<Path> unit_paths_;
};

}  // namespace morne::env
