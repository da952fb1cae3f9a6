#include "tests/env/reference_rules.h"

#include <algorithm>

#include "env/combat.h"
#include "env/los.h"

namespace morne::test {

namespace {

using env::CellId;
using env::Hexside;
using env::Terrain;
using env::UnitType;
using env::Water;

// MV-COST-1 written out again, row by row, by terrain and unit type.
int enterCost(Terrain t, UnitType type, bool general_as_infantry) {
  const bool inf = type == UnitType::kInfantry || type == UnitType::kLightInfantry ||
                   (type == UnitType::kGeneral && general_as_infantry);
  const bool art = type == UnitType::kFootArtillery || type == UnitType::kHorseArtillery;
  const bool drom = type == UnitType::kDromedary;
  switch (t) {
    case Terrain::kClear:
    case Terrain::kHamlet:
    case Terrain::kMarsh:
      return 1;
    case Terrain::kRough:
    case Terrain::kCoppice:
      return inf ? 1 : 2;
    case Terrain::kOrchard:
      return inf ? 1 : (art ? 2 : 3);
    case Terrain::kWoods:
    case Terrain::kVillage:
      return inf ? 2 : 3;
    case Terrain::kPalmGrove:
      return inf || drom ? 1 : 2;
    case Terrain::kDune:
      return drom ? 1 : (inf ? 2 : 3);
    case Terrain::kFort:
      return art ? 3 : 2;
  }
  return 99;
}

int unitOn(const env::GameState& s, CellId c) {
  for (int u = 0; u < s.num_units; ++u) {
    if (s.unit(u).cell == c) return u;
  }
  return -1;
}

bool isRiver(Water w) { return w == Water::kRiver || w == Water::kMajorRiver; }

// M-CONTACT-1 from the raw hexside (a ford restores contact only under ford_allows_combat).
bool contact(const env::Scenario& sc, const Hexside& h) {
  if (h.neighbor == env::kNoCell) return false;
  if (h.climb >= 2 || h.climb <= -2) return false;
  const bool ford_ok = h.crossing == env::Crossing::kFord && sc.rules().ford_allows_combat;
  return !(isRiver(h.water) && h.crossing != env::Crossing::kBridge && !ford_ok);
}

bool demoralised(const env::GameState& s, int u) {
  return s.unit(u).mo == 0 && s.typeOf(u) != UnitType::kGeneral;
}

// Routed or pursuing units of the variant modules act only by their rout or pursuit
// (V-ROUT-2, V-PUR-3); their movement points are already 0.
bool outOfControl(const env::GameState& s, int u) {
  return (s.morale[static_cast<size_t>(u)].bits &
          (env::morale_bit::kRouted | env::morale_bit::kPursuing)) != 0;
}

// MV-ZOC-1/2: some enemy of `side` standing next to c, in contact (or any adjacency when the
// switch says so), not demoralised, and not a general when generals exert no ZOC.
bool enemyZoc(const env::GameState& s, CellId c, int side) {
  const env::Scenario& sc = s.sc();
  for (int v = 0; v < s.num_units; ++v) {
    if (s.unit(v).cell == env::kNoCell || s.sideOf(v) == side || demoralised(s, v)) continue;
    if (s.typeOf(v) == UnitType::kGeneral && !sc.rules().generals_exert_zoc) continue;
    for (int d = 0; d < env::kNumDirections; ++d) {
      const Hexside& h = sc.side(c, d);
      if (h.neighbor == s.unit(v).cell &&
          (contact(sc, h) || sc.rules().zoc_across_rivers_and_cliffs)) {
        return true;
      }
    }
  }
  return false;
}

bool legalMove(const env::GameState& s, env::Action a) {
  const env::Scenario& sc = s.sc();
  if (s.phase != env::Phase::kMovement) return false;
  const int u = unitOn(s, a.cell);
  if (u < 0 || s.sideOf(u) != s.side) return false;
  const uint16_t f = s.unit(u).flags;
  if (f & (env::unit_flag::kHalted | env::unit_flag::kStuck)) return false;
  if (s.unit(u).mp < 1) return false;
  const Hexside& h = sc.side(a.cell, a.arg);
  if (h.neighbor == env::kNoCell || unitOn(s, h.neighbor) >= 0) return false;
  const int contours = h.climb < 0 ? -h.climb : h.climb;
  const bool bridged = h.crossing == env::Crossing::kBridge;
  if (isRiver(h.water) && h.crossing == env::Crossing::kNone) return false;
  if (contours >= 2 && !h.track) return false;
  int cost = 0;
  if (contours >= 2) {
    cost = contours;
  } else {
    cost = enterCost(sc.terrain(h.neighbor), s.typeOf(u),
                     sc.rules().general_moves_as == env::GeneralMoves::kAsInfantry);
    if (h.water != Water::kNone && !bridged) cost += 1;
    if (h.climb == 1) cost += sc.rules().slope_up_cost;
    if (h.climb == -1) cost += sc.rules().slope_down_cost;
  }
  if (h.road && (f & env::unit_flag::kRoadFree)) {
    cost = sc.rules().free_road_step_ignores_hexside
               ? 0
               : (contours >= 2 ? contours
                                : (h.water != Water::kNone && !bridged) +
                                      (h.climb == 1 ? sc.rules().slope_up_cost : 0) +
                                      (h.climb == -1 ? sc.rules().slope_down_cost : 0));
  }
  const bool fresh = (f & env::unit_flag::kStepped) == 0;
  if (cost > s.unit(u).mp && !(sc.rules().minimum_move_one_hex && fresh)) return false;
  return !(demoralised(s, u) && enemyZoc(s, h.neighbor, s.sideOf(u)));
}

bool legalCharge(const env::GameState& s, env::Action a) {
  const env::Scenario& sc = s.sc();
  if (s.phase != env::Phase::kMovement) return false;
  const int u = unitOn(s, a.cell);
  if (u < 0 || s.sideOf(u) != s.side || s.typeOf(u) != UnitType::kCavalry) return false;
  if (demoralised(s, u) || outOfControl(s, u) || (s.unit(u).flags & env::unit_flag::kCharged))
    return false;
  if (sc.rules().charge_requires_move && !(s.unit(u).flags & env::unit_flag::kStepped))
    return false;
  if (s.charge_window >= 0 && s.charge_window != u) return false;
  const Hexside& h = sc.side(a.cell, a.arg);
  if (!contact(sc, h)) return false;
  const int v = unitOn(s, h.neighbor);
  return v >= 0 && s.sideOf(v) != s.side && s.typeOf(v) != UnitType::kGeneral;
}

bool legalAttack(const env::GameState& s, env::Action a) {
  const env::Scenario& sc = s.sc();
  if (s.phase != env::Phase::kCombat) return false;
  const int u = unitOn(s, a.cell);
  if (u < 0 || s.sideOf(u) != s.side || (s.unit(u).flags & env::unit_flag::kAttacked)) return false;
  if (demoralised(s, u) || outOfControl(s, u)) return false;
  const UnitType type = s.typeOf(u);
  const bool special = type == UnitType::kGeneral || type == UnitType::kFootArtillery ||
                       type == UnitType::kHorseArtillery;
  if (special && !sc.rules().artillery_and_generals_attack) return false;
  const Hexside& h = sc.side(a.cell, a.arg);
  if (!contact(sc, h)) return false;
  const int v = unitOn(s, h.neighbor);
  if (v < 0 || s.sideOf(v) == s.side || (s.unit(v).flags & env::unit_flag::kDefended)) return false;
  return sc.rules().zero_strength_attack == env::ZeroStrengthAttack::kOneToEight ||
         env::combatOdds(s, u, v).attack > 0;
}

bool legalFire(const env::GameState& s, env::Action a) {
  const env::Scenario& sc = s.sc();
  if (s.phase != env::Phase::kBombardment) return false;
  const int u = unitOn(s, a.cell);
  if (u < 0 || s.sideOf(u) != s.side || (s.unit(u).flags & env::unit_flag::kFired)) return false;
  const UnitType type = s.typeOf(u);
  if (type != UnitType::kFootArtillery && type != UnitType::kHorseArtillery) return false;
  const Terrain t = sc.terrain(a.cell);
  if (t == Terrain::kWoods || t == Terrain::kVillage) return false;
  if (demoralised(s, u) && !sc.rules().artillery_fires_when_demoralised) return false;
  if (outOfControl(s, u)) return false;
  if (!sc.rules().artillery_fires_when_adjacent) {
    for (int v = 0; v < s.num_units; ++v) {
      if (s.unit(v).cell != env::kNoCell && s.sideOf(v) != s.side &&
          sc.distance(a.cell, s.unit(v).cell) == 1) {
        return false;
      }
    }
  }
  const env::Hex target_hex = sc.hexOf(a.cell) + env::fireOffsets(sc.maxRange())[a.arg];
  const CellId target_cell = sc.cellAt(target_hex);
  if (target_cell == env::kNoCell || sc.distance(a.cell, target_cell) > sc.unit(u).range)
    return false;
  const int v = unitOn(s, target_cell);
  if (v < 0 || s.sideOf(v) == s.side) return false;
  auto terrain = [&sc](env::Hex h) { return sc.losTerrain(h); };
  return env::lineOfSight(sc.hexOf(a.cell), target_hex, terrain, sc.rules().los_obstacle_height)
      .visible;
}

bool legalPlace(const env::GameState& s, env::Action a) {
  if (s.phase != env::Phase::kSetup) return false;
  bool waiting = false;
  for (int u = 0; u < s.num_units; ++u) {
    waiting =
        waiting || (s.sideOf(u) == s.side && (s.unit(u).flags & env::unit_flag::kAwaitingSetup));
  }
  const auto& zone = s.sc().setupZone(s.side);
  return waiting && unitOn(s, a.cell) < 0 &&
         std::find(zone.begin(), zone.end(), a.cell) != zone.end();
}

}  // namespace

std::vector<env::Action> referenceLegalActions(const env::GameState& s) {
  std::vector<env::Action> out;
  if (s.isChanceNode() || s.isTerminal()) return out;
  const int size = env::actionSpaceSize(s.sc());
  for (int i = 0; i < size; ++i) {
    const env::Action a = *env::actionFromIndex(s.sc(), i);
    bool legal = false;
    switch (a.kind) {
      case env::ActionKind::kEnd:
        legal = s.phase != env::Phase::kSetup && s.charge_window < 0;
        break;
      case env::ActionKind::kHold:
        legal = s.charge_window >= 0;
        break;
      case env::ActionKind::kPlace:
        legal = legalPlace(s, a);
        break;
      case env::ActionKind::kMove:
        legal = s.charge_window < 0 && legalMove(s, a);
        break;
      case env::ActionKind::kCharge:
        legal = legalCharge(s, a);
        break;
      case env::ActionKind::kAttack:
        legal = legalAttack(s, a);
        break;
      case env::ActionKind::kFire:
        legal = legalFire(s, a);
        break;
    }
    if (legal) out.push_back(a);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace morne::test
