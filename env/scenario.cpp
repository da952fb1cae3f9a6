#include "env/scenario.h"

#include <algorithm>

namespace morne::env {

namespace {

// Movement cost to enter a hex (MV-COST-1), columns Infantry, Cavalry, General, Artillery,
// Dromedary; rows in Terrain order. Marsh costs 1 and triggers the marsh test (MV-MARSH-1).
constexpr int8_t kEnterCost[kNumTerrains][kNumMoveClasses] = {
    {1, 1, 1, 1, 1},  // clear
    {1, 2, 2, 2, 2},  // rough
    {1, 2, 2, 2, 2},  // coppice (= rough, EN06-rev)
    {1, 3, 3, 2, 3},  // orchard / olive grove
    {2, 3, 3, 3, 3},  // woods
    {2, 3, 3, 3, 3},  // village (the source's asterisk is ignored, Q-MV-1)
    {1, 1, 1, 1, 1},  // hamlet
    {1, 1, 1, 1, 1},  // marsh
    {1, 2, 2, 2, 1},  // palm grove
    {2, 3, 3, 3, 1},  // dune
    {2, 2, 2, 3, 2},  // fort
};

constexpr std::array<std::string_view, 3> kZoneCriterionNames = {"majority", "all", "any"};

MoveClass moveClassOf(UnitType type) {
  switch (type) {
    case UnitType::kInfantry:
    case UnitType::kLightInfantry:
      return MoveClass::kInfantry;
    case UnitType::kCavalry:
      return MoveClass::kCavalry;
    case UnitType::kFootArtillery:
    case UnitType::kHorseArtillery:
      return MoveClass::kArtillery;
    case UnitType::kGeneral:
      return MoveClass::kGeneral;
    case UnitType::kDromedary:
      return MoveClass::kDromedary;
  }
  return MoveClass::kInfantry;
}

bool isRiver(Water w) { return w == Water::kRiver || w == Water::kMajorRiver; }

// Derives the rule-facing flags of one hexside from its features (M-CONTACT-1, M-CONTACT-2,
// MV-COST-2..5, C-RET-2).
void deriveHexside(Hexside& h, const RuleSwitches& rules) {
  if (h.neighbor == kNoCell) return;
  const bool bridged = h.crossing == Crossing::kBridge;
  const bool forded = h.crossing == Crossing::kFord;
  const bool cliff = h.isCliff();
  const bool river = isRiver(h.water);

  h.stream = h.water == Water::kStream && !bridged;
  h.divides = h.stream || (river && forded && rules.ford_allows_combat);
  h.movable = !(river && !bridged && !forded) && (!cliff || h.track);
  h.contact = !cliff && !(river && !bridged && !(forded && rules.ford_allows_combat));
  h.retreatable = !cliff && !(river && !bridged && !(forded && rules.retreat_across_ford));
  const bool water_separates = h.water != Water::kNone && !(bridged && rules.rally_bridge_connects);
  h.rally_adjacent = !cliff && !water_separates;

  int extra = 0;
  if (h.water != Water::kNone && !bridged) extra += 1;  // stream or ford: +1
  if (h.climb == 1) extra += rules.slope_up_cost;
  if (h.climb == -1) extra += rules.slope_down_cost;
  h.step_extra = static_cast<int8_t>(extra);
  h.track_cost = cliff && h.track ? static_cast<int8_t>(h.climb < 0 ? -h.climb : h.climb) : 0;
}

}  // namespace

std::string_view zoneCriterionName(ZoneCriterion c) {
  return kZoneCriterionNames[static_cast<size_t>(c)];
}

std::optional<ZoneCriterion> parseZoneCriterion(std::string_view name) {
  for (size_t i = 0; i < kZoneCriterionNames.size(); ++i) {
    if (kZoneCriterionNames[i] == name) return static_cast<ZoneCriterion>(i);
  }
  return std::nullopt;
}

CellId Scenario::cellAt(Hex h) const {
  int col = 0;
  int row = 0;
  axialToOffset(h, layout_, col, row);
  if (col < 0 || row < 0 || col >= width_ || row >= height_) return kNoCell;
  return offset_to_cell_[static_cast<size_t>(row * width_ + col)];
}

std::string Scenario::label(CellId c) const {
  int col = 0;
  int row = 0;
  axialToOffset(hexOf(c), layout_, col, row);
  return offsetLabel(col, row);
}

CellId Scenario::cellOfLabel(std::string_view text) const {
  int col = 0;
  int row = 0;
  if (!parseOffsetLabel(text, col, row)) return kNoCell;
  if (col >= width_ || row >= height_) return kNoCell;
  return offset_to_cell_[static_cast<size_t>(row * width_ + col)];
}

int Scenario::unitIndex(std::string_view id) const {
  for (size_t u = 0; u < units_.size(); ++u) {
    if (units_[u].id == id) return static_cast<int>(u);
  }
  return -1;
}

bool Scenario::inSetupZone(int side, CellId c) const {
  const auto& zone = setup_zones_[static_cast<size_t>(side)];
  return std::find(zone.begin(), zone.end(), c) != zone.end();
}

LosTerrain Scenario::losTerrain(Hex h) const {
  const CellId c = cellAt(h);
  if (c == kNoCell) return {};
  return {true, level(c), isLosObstacle(terrain(c))};
}

void Scenario::computeVisibility() {
  const int n = numCells();
  los_words_ = (n + 63) / 64;
  los_bits_.assign(static_cast<size_t>(n) * static_cast<size_t>(los_words_), 0);
  if (max_range_ == 0) return;
  auto terrainOf = [this](Hex h) { return losTerrain(h); };
  for (CellId a = 0; a < n; ++a) {
    for (CellId b = 0; b < n; ++b) {
      const int d = distance(a, b);
      if (d > max_range_) continue;
      if (d > 0 &&
          !lineOfSight(hexOf(a), hexOf(b), terrainOf, rules_.los_obstacle_height).visible) {
        continue;
      }
      const size_t bit =
          static_cast<size_t>(a) * static_cast<size_t>(los_words_) * 64 + static_cast<size_t>(b);
      los_bits_[bit / 64] |= uint64_t{1} << (bit % 64);
    }
  }
}

void Scenario::finalize() {
  const size_t n = hexes_.size();
  for (Hexside& h : hexsides_) deriveHexside(h, rules_);

  road_hex_.assign(n, false);
  for (size_t c = 0; c < n; ++c) {
    for (int d = 0; d < kNumDirections; ++d) {
      if (hexsides_[c * kNumDirections + static_cast<size_t>(d)].road) road_hex_[c] = true;
    }
  }

  for (int m = 0; m < kNumMoveClasses; ++m) {
    auto& costs = enter_cost_[static_cast<size_t>(m)];
    costs.resize(n);
    for (size_t c = 0; c < n; ++c) {
      costs[c] = kEnterCost[static_cast<size_t>(terrain_[c])][static_cast<size_t>(m)];
    }
  }
  if (rules_.general_moves_as == GeneralMoves::kAsInfantry) {
    enter_cost_[static_cast<size_t>(MoveClass::kGeneral)] =
        enter_cost_[static_cast<size_t>(MoveClass::kInfantry)];
  }

  fort_index_.assign(n, -1);
  fort_cells_.clear();
  for (size_t c = 0; c < n; ++c) {
    if (terrain_[c] == Terrain::kFort) {
      fort_index_[c] = static_cast<int>(fort_cells_.size());
      fort_cells_.push_back(static_cast<CellId>(c));
    }
  }
  fort_initial_control_.resize(fort_cells_.size(), kNoSide);

  move_class_.clear();
  max_range_ = 0;
  for (const UnitInfo& u : units_) {
    move_class_.push_back(moveClassOf(u.type));
    if (isArtillery(u.type)) max_range_ = std::max(max_range_, u.range);
  }

  computeVisibility();

  objective_index_.assign(n, -1);
  tracked_index_.assign(n, -1);
  tracked_cells_.clear();
  tracked_initial_owner_.clear();
  auto track = [&](CellId c, int owner) {
    if (tracked_index_[static_cast<size_t>(c)] >= 0) return;
    tracked_index_[static_cast<size_t>(c)] = static_cast<int>(tracked_cells_.size());
    tracked_cells_.push_back(c);
    tracked_initial_owner_.push_back(owner);
  };
  for (size_t i = 0; i < objectives_.size(); ++i) {
    objective_index_[static_cast<size_t>(objectives_[i].cell)] = static_cast<int>(i);
    if (objectives_[i].passing) track(objectives_[i].cell, objectives_[i].initial_owner);
  }
  for (const Zone& z : zones_) {
    if (!z.passing) continue;
    for (CellId c : z.cells) track(c, kNoSide);
  }
}

}  // namespace morne::env
