#pragma once
// Scenario: everything about a game that never changes while it is played: the map (terrain,
// elevation, hexside features, roads), the orders of battle, objectives, set-up zones, the
// number of game turns and the rule switches. Loaded once (env/io/scenario_json.h), validated,
// then shared read-only by every GameState as std::shared_ptr<const Scenario>, the way
// OpenSpiel states share their Game.
//
// Hexes that exist are numbered by a dense CellId 0..numCells()-1 in row-major offset order;
// per-cell and per-hexside tables below are indexed by it. Rule code works on cells only.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "env/capacity.h"
#include "env/crt.h"
#include "env/hex.h"
#include "env/los.h"
#include "env/rule_switches.h"
#include "env/types.h"

namespace morne::env {

// One hexside as seen from one of its two hexes. Stored twice (once per side), so that the
// rule code never needs to find the opposite entry.
struct Hexside {
  CellId neighbor = kNoCell;  // kNoCell: off the map
  Water water = Water::kNone;
  Crossing crossing = Crossing::kNone;
  bool road = false;   // a road crosses this hexside (MV-ROAD-1)
  bool track = false;  // a track crosses a cliff here (M-TER-4)
  int8_t climb = 0;    // level(neighbor) - level(this); |climb| contour lines (M-ELEV-1)

  // Derived from the above and the rule switches when the scenario is finalised.
  bool movable = false;         // a movement step may cross (MV-COST-2, MV-COST-4, MV-COST-5)
  bool contact = false;         // the two hexes are in contact (M-CONTACT-1)
  bool retreatable = false;     // a retreat may cross (C-RET-2)
  bool rally_adjacent = false;  // adjacency for rally (M-CONTACT-2)
  bool stream = false;          // an unbridged stream (C-TER-1, retreat criterion 5)
  bool divides = false;         // combat VC across it is divided by 1.5 (C-TER-1, C-TER-3)
  int8_t step_extra = 0;        // MP added to a normal step: stream/ford, slope (MV-COST-2, -3)
  int8_t track_cost = 0;        // > 0: step over a cliff by track costs this in total (MV-COST-5)

  bool isCliff() const { return climb >= 2 || climb <= -2; }
};

// Static data of one unit (U-ATTR-1). Current values live in GameState.
struct UnitInfo {
  std::string id;    // unique short id used in files, logs and the protocol
  std::string name;  // display name
  int side = 0;
  UnitType type = UnitType::kInfantry;
  int corps = -1;         // index into Scenario::corps(); -1: independent (U-IND-1)
  int vc = 1;             // initial combat value
  int mo = 0;             // initial morale (0 for generals, who have none: U-ATTR-3)
  int ma = 1;             // movement allowance
  int vt = 0;             // fire value (artillery)
  int range = 0;          // range in hexes (artillery)
  int radius = 0;         // command radius (generals)
  int morale_factor = 0;  // 2d6 morale factor (V-MOR-2); 0: from MO by the rule switches
  Quality quality = Quality::kRegular;  // troop quality of the graded morale model (V-MOR-5)
  bool heavy_cavalry = false;  // cavalry: heavy, else light (seed 002 rout distances, V-ROUT-6)
  CellId start = kNoCell;      // starting hex; kNoCell when placed during set-up
  CellId proposed = kNoCell;   // suggested hex for optional set-up (S-1a), else kNoCell
};

struct Corps {
  std::string id;
  std::string name;
  int side = 0;
  int general = -1;  // unit index of its general, -1 if it has none
};

// A victory objective hex (V-HEX-*).
struct Objective {
  CellId cell = kNoCell;
  bool passing = false;                // passing (control) hex; else occupied hex
  std::array<int, kNumSides> vp = {};  // victory points it gives each side (V-HEX-4)
  int initial_owner = kNoSide;         // passing hexes only
};

// A victory zone (V-ZONE-1).
enum class ZoneCriterion : uint8_t { kMajority, kAll, kAny };
struct Zone {
  std::string name;
  std::vector<CellId> cells;
  bool passing = false;
  ZoneCriterion criterion = ZoneCriterion::kMajority;
  std::array<int, kNumSides> vp = {};
};

// A victory-point handicap (the scenario's `balance`): half points added to one side's score at
// the end of the game (V-LEVEL-1), so that a one-sided scenario is even between equal players.
// Half points break ties (docs/scenario-format.md).
struct VpHandicap {
  int side = kNoSide;  // the side that receives it; kNoSide when the scenario has none
  int half_vp = 0;     // in half victory points, >= 0
  // The handicap in half victory points, positive to blue, negative to orange.
  int signedHalf() const { return side == kNoSide ? 0 : (side == 0 ? half_vp : -half_vp); }
};

// How a scenario's handicap was measured (`balance.measured`): the games of one pair of agents
// at that handicap, as `morne scenario balance` played them. What the client's scenario card and
// `morne scenario show` state.
struct BalanceMeasurement {
  std::string agents;                   // "A" (A plays itself) or "A vs B", agent specs
  int blue = 0, orange = 0, draws = 0;  // wins of each side, with the handicap, and draws
  uint64_t seed = 1;                    // the dice seed of the run (game i: deriveSeed(seed, i))
};

std::string_view zoneCriterionName(ZoneCriterion c);
std::optional<ZoneCriterion> parseZoneCriterion(std::string_view name);

class Scenario {
 public:
  // --- identity ---
  const std::string& name() const { return name_; }
  const std::string& title() const { return title_; }
  const std::string& description() const { return description_; }

  // --- map geometry ---
  int width() const { return width_; }
  int height() const { return height_; }
  OffsetLayout layout() const { return layout_; }
  int numCells() const { return static_cast<int>(hexes_.size()); }
  Hex hexOf(CellId c) const { return hexes_[static_cast<size_t>(c)]; }
  // The cell at an axial coordinate, or kNoCell if that hex is not on the map.
  CellId cellAt(Hex h) const;
  // The map label ("0507") of a cell.
  std::string label(CellId c) const;
  // The cell named by a map label, or kNoCell if the label is malformed or off the map.
  CellId cellOfLabel(std::string_view label) const;
  CellId neighbor(CellId c, int dir) const { return side(c, dir).neighbor; }
  const Hexside& side(CellId c, int dir) const {
    return hexsides_[static_cast<size_t>(c) * kNumDirections + static_cast<size_t>(dir)];
  }
  int distance(CellId a, CellId b) const { return hexDistance(hexOf(a), hexOf(b)); }

  // --- terrain ---
  Terrain terrain(CellId c) const { return terrain_[static_cast<size_t>(c)]; }
  int level(CellId c) const { return level_[static_cast<size_t>(c)]; }
  bool isRoadHex(CellId c) const { return road_hex_[static_cast<size_t>(c)]; }
  // Movement points to enter cell c for a movement class, before hexside costs (MV-COST-1).
  int enterCost(MoveClass m, CellId c) const {
    return enter_cost_[static_cast<size_t>(m)][static_cast<size_t>(c)];
  }
  // Fort index of a cell (into fortCells()), or -1.
  int fortIndex(CellId c) const { return fort_index_[static_cast<size_t>(c)]; }
  const std::vector<CellId>& fortCells() const { return fort_cells_; }
  // Initial controlling side of each fort (M-FORT-1), kNoSide if none.
  const std::vector<int>& fortInitialControl() const { return fort_initial_control_; }

  // --- orders of battle ---
  const std::array<std::string, kNumSides>& sideNames() const { return side_names_; }
  // The map edge a side's routs run to (V-ROUT-3): blue south and orange north unless the
  // scenario says otherwise, as in retreat criterion 6 (C-RET-4).
  MapEdge homeEdge(int side) const { return home_edges_[static_cast<size_t>(side)]; }
  int numUnits() const { return static_cast<int>(units_.size()); }
  const UnitInfo& unit(int u) const { return units_[static_cast<size_t>(u)]; }
  const std::vector<UnitInfo>& units() const { return units_; }
  // Unit index of an id, or -1.
  int unitIndex(std::string_view id) const;
  const std::vector<Corps>& corps() const { return corps_; }
  // Movement class of a unit, after the general_moves_as switch.
  MoveClass moveClass(int u) const { return move_class_[static_cast<size_t>(u)]; }
  // Largest artillery range in the scenario (0 if it has no artillery).
  int maxRange() const { return max_range_; }

  // --- line of sight (F-LOS-*), precomputed for every pair within maxRange() ---
  // Whether a and b see each other. Precondition: distance(a, b) <= maxRange().
  bool visible(CellId a, CellId b) const {
    const size_t bit =
        static_cast<size_t>(a) * static_cast<size_t>(los_words_) * 64 + static_cast<size_t>(b);
    return (los_bits_[bit / 64] >> (bit % 64)) & 1;
  }
  // The line-of-sight facts of any axial hex, on the map or not.
  LosTerrain losTerrain(Hex h) const;

  // --- victory and set-up ---
  const std::vector<Objective>& objectives() const { return objectives_; }
  // Objective index of a cell, or -1.
  int objectiveIndex(CellId c) const { return objective_index_[static_cast<size_t>(c)]; }
  const std::vector<Zone>& zones() const { return zones_; }
  // The victory-point handicap counted in gameResult (none by default).
  const VpHandicap& balance() const { return balance_; }
  // The measurements of that handicap, in the scenario's order (none if it gives none).
  const std::vector<BalanceMeasurement>& balanceMeasurements() const { return measured_; }
  // Hexes whose owner (side of the last non-general unit to enter) the state tracks: passing
  // objectives and the hexes of passing zones (V-HEX-2, V-ZONE-1).
  const std::vector<CellId>& trackedCells() const { return tracked_cells_; }
  // Index of a cell in trackedCells(), or -1.
  int trackedIndex(CellId c) const { return tracked_index_[static_cast<size_t>(c)]; }
  // Initial owner of each tracked hex (kNoSide if none).
  const std::vector<int>& trackedInitialOwner() const { return tracked_initial_owner_; }
  const std::vector<CellId>& setupZone(int side) const {
    return setup_zones_[static_cast<size_t>(side)];
  }
  bool inSetupZone(int side, CellId c) const;
  const std::vector<CellId>& entryHexes(int side) const {
    return entry_hexes_[static_cast<size_t>(side)];
  }
  int turns() const { return turns_; }
  const RuleSwitches& rules() const { return rules_; }
  // The combat results table (Appendix B unless the scenario replaces it).
  const CombatResultsTable& crt() const { return crt_; }

  // The original JSON text the scenario was loaded from (for `morne engine` and saved states).
  const std::string& sourceText() const { return source_text_; }

 private:
  friend class ScenarioLoader;
  // Computes every derived table. Called once by the loader after validation.
  void finalize();
  // Fills los_bits_ for every pair of cells within max_range_ (F-LOS-*).
  void computeVisibility();

  std::string name_, title_, description_, source_text_;
  int width_ = 0, height_ = 0;
  OffsetLayout layout_ = OffsetLayout::kOddR;
  std::vector<Hex> hexes_;
  std::vector<CellId> offset_to_cell_;  // width*height, kNoCell for void hexes
  std::vector<Terrain> terrain_;
  std::vector<int> level_;
  std::vector<Hexside> hexsides_;  // numCells * 6
  std::vector<bool> road_hex_;
  std::array<std::vector<int8_t>, kNumMoveClasses> enter_cost_;
  std::vector<int> fort_index_;
  std::vector<CellId> fort_cells_;
  std::vector<int> fort_initial_control_;
  std::array<std::string, kNumSides> side_names_;
  std::array<MapEdge, kNumSides> home_edges_ = {MapEdge::kSouth, MapEdge::kNorth};
  std::vector<UnitInfo> units_;
  std::vector<MoveClass> move_class_;
  std::vector<Corps> corps_;
  int max_range_ = 0;
  int los_words_ = 0;               // 64-bit words per row of the visibility matrix
  std::vector<uint64_t> los_bits_;  // numCells x numCells bits
  std::vector<Objective> objectives_;
  std::vector<int> objective_index_;
  std::vector<Zone> zones_;
  VpHandicap balance_;
  std::vector<BalanceMeasurement> measured_;
  std::vector<CellId> tracked_cells_;
  std::vector<int> tracked_index_;
  std::vector<int> tracked_initial_owner_;
  std::array<std::vector<CellId>, kNumSides> setup_zones_;
  std::array<std::vector<CellId>, kNumSides> entry_hexes_;
  int turns_ = 12;
  RuleSwitches rules_;
  CombatResultsTable crt_ = appendixBTable();
};

}  // namespace morne::env
