// explainIllegal (env/io/notation.h): why an action is refused, citing the rule, for the protocol's
// error messages. It re-asks the rule functions in the order a player would check them.

#include "env/combat.h"
#include "env/control.h"
#include "env/fire.h"
#include "env/io/notation.h"
#include "env/movement.h"
#include "env/rules.h"

namespace morne::env {

namespace {

std::string unitId(const GameState& s, int u) { return u >= 0 ? s.sc().unit(u).id : "?"; }

std::string explainMove(const GameState& s, Action a, int u) {
  const Scenario& sc = s.sc();
  const std::string id = unitId(s, u);
  const UnitState& us = s.unit(u);
  if (us.flags & unit_flag::kStuck) return id + " is stuck in a marsh for this phase (MV-MARSH-1)";
  if (us.flags & unit_flag::kCharged) return id + " charged; its movement is over (MV-CHG-5)";
  if (us.flags & unit_flag::kHalted) {
    return id + " entered an enemy-controlled hex; its movement is over (MV-ZOC-2)";
  }
  if (us.mp <= 0) return id + " has no movement points left (MV-GEN-3)";
  const Hexside& h = sc.side(a.cell, a.arg);
  if (h.neighbor == kNoCell) return "that step leaves the map (M-HEX-3)";
  const std::string to = sc.label(h.neighbor);
  if (!h.movable) {
    if (h.isCliff()) return "hexside " + sc.label(a.cell) + "-" + to + " is a cliff (MV-COST-4)";
    return "hexside " + sc.label(a.cell) + "-" + to + " is a " + std::string(waterName(h.water)) +
           " without bridge or ford (MV-COST-2)";
  }
  if (const int v = s.unitAt(h.neighbor); v >= 0) {
    return to + " holds " + unitId(s, v) + "; no stacking or passing through (U-STACK-1)";
  }
  if (s.demoralised(u) && enemyControlled(s, h.neighbor, s.sideOf(u))) {
    return id + " is demoralised and may not enter enemy-controlled " + to + " (MV-ZOC-4)";
  }
  GameState probe = s;  // the cost as stepCost computes it, whatever the points left
  setUnitMp(probe, u, zobrist::kMaxValue - 1);
  const int cost = stepCost(probe, u, a.arg, nullptr);
  return "entering " + to + " costs " + std::to_string(cost) + " movement points; " + id + " has " +
         std::to_string(us.mp) + " (MV-COST-1..5, MV-ROAD-2)";
}

std::string explainCharge(const GameState& s, Action a, int u) {
  const Scenario& sc = s.sc();
  const std::string id = unitId(s, u);
  if (s.typeOf(u) != UnitType::kCavalry)
    return id + " is not cavalry; only cavalry charges (MV-CHG-1)";
  if (s.has(u, unit_flag::kCharged)) return id + " has already charged this turn (MV-CHG-5)";
  if (s.demoralised(u)) return id + " is demoralised and may not charge (U-DEM-1)";
  if (sc.rules().charge_requires_move && !s.has(u, unit_flag::kStepped)) {
    return id + " has not moved this phase; a charge follows a move (MV-CHG-5)";
  }
  const Hexside& h = sc.side(a.cell, a.arg);
  const int v = h.neighbor == kNoCell ? -1 : s.unitAt(h.neighbor);
  if (v < 0 || s.sideOf(v) == s.sideOf(u)) return "no enemy unit in that direction";
  if (!h.contact) return id + " is not in contact with " + unitId(s, v) + " (M-CONTACT-1)";
  if (isGeneral(s.typeOf(v)))
    return unitId(s, v) + " is a general; generals are immune to charges (MV-CHG-5)";
  return {};
}

std::string explainAttack(const GameState& s, Action a, int u) {
  const Scenario& sc = s.sc();
  const std::string id = unitId(s, u);
  if (s.has(u, unit_flag::kAttacked)) return id + " has already attacked this phase (C-GEN-1)";
  if (s.demoralised(u)) return id + " is demoralised and may not attack (C-GEN-3)";
  const UnitType type = s.typeOf(u);
  if ((isArtillery(type) || isGeneral(type)) && !sc.rules().artillery_and_generals_attack) {
    return "artillery and generals do not attack under this scenario's rules (C-GEN-4)";
  }
  const int v = attackTarget(s, a);
  if (v < 0 || s.sideOf(v) == s.sideOf(u)) return "no enemy unit in that direction";
  if (s.has(v, unit_flag::kDefended))
    return unitId(s, v) + " has already been attacked this phase (C-GEN-1)";
  if (!sc.side(a.cell, a.arg).contact) {
    return "no combat across a river, major river (unless bridged) or cliff (C-GEN-2)";
  }
  if (combatOdds(s, u, v).attack == 0) return "the attack would have strength 0 (C-RATIO-4)";
  return {};
}

std::string explainFire(const GameState& s, Action a, int u) {
  const Scenario& sc = s.sc();
  const std::string id = unitId(s, u);
  if (!isArtillery(s.typeOf(u))) return id + " is not artillery (F-GEN-1)";
  if (s.has(u, unit_flag::kFired)) return id + " has already fired this phase (F-GEN-1)";
  const Terrain t = sc.terrain(a.cell);
  if (t == Terrain::kWoods || t == Terrain::kVillage)
    return "artillery cannot fire out of woods or a village (F-GEN-4)";
  if (!canBombard(s, u)) return id + " may not fire under this scenario's rules (F-GEN-7)";
  const int v = fireTarget(s, a);
  if (v < 0 || s.sideOf(v) == s.sideOf(u)) return "no enemy unit on the target hex";
  const int d = sc.distance(a.cell, s.unit(v).cell);
  if (d > sc.unit(u).range) {
    return "the target is " + std::to_string(d) + " hexes away; " + id + "'s range is " +
           std::to_string(sc.unit(u).range) + " (F-GEN-3)";
  }
  return "no line of sight from " + sc.label(a.cell) + " to " + sc.label(s.unit(v).cell) +
         " (F-LOS-*)";
}

}  // namespace

std::string explainIllegal(const GameState& s, Action a) {
  if (isLegal(s, a)) return {};
  if (s.isTerminal()) return "the game is over";
  if (s.isChanceNode()) return "a chance event is pending; apply one of its outcomes first";
  const Scenario& sc = s.sc();
  if (s.charge_window >= 0) {
    return unitId(s, s.charge_window) +
           " must first decide whether to charge (\"hold\" or a charge) "
           "before the reaction fire its step triggered (F-REACT-6)";
  }
  const std::string phase(phaseName(s.phase));
  switch (a.kind) {
    case ActionKind::kEnd:
      return s.phase == Phase::kSetup ? "set-up ends when every unit is placed (S-2)"
                                      : "\"end\" is not available now";
    case ActionKind::kHold:
      return "\"hold\" only answers the charge decision before reaction fire (F-REACT-6)";
    case ActionKind::kPlace:
      if (s.phase != Phase::kSetup) return "units are placed only in the set-up phase (S-2)";
      if (!sc.inSetupZone(s.side, a.cell)) {
        return sc.label(a.cell) + " is outside " + std::string(sideColor(s.side)) +
               "'s set-up zone (S-3)";
      }
      return sc.label(a.cell) + " is occupied (S-3)";
    case ActionKind::kMove:
    case ActionKind::kCharge:
    case ActionKind::kAttack:
    case ActionKind::kFire:
      break;
  }
  const Phase needed = a.kind == ActionKind::kAttack ? Phase::kCombat
                       : a.kind == ActionKind::kFire ? Phase::kBombardment
                                                     : Phase::kMovement;
  if (s.phase != needed) {
    return "\"" + std::string(actionKindName(a.kind)) + "\" belongs to the " +
           std::string(phaseName(needed)) + " phase; this is the " + phase + " phase";
  }
  const int u = s.unitAt(a.cell);
  if (u < 0) return "no unit at " + sc.label(a.cell);
  if (s.sideOf(u) != s.side) {
    return unitId(s, u) + " belongs to " + std::string(sideColor(s.sideOf(u))) + "; " +
           std::string(sideColor(s.side)) + " is to act";
  }
  std::string why;
  switch (a.kind) {
    case ActionKind::kMove:
      why = explainMove(s, a, u);
      break;
    case ActionKind::kCharge:
      why = explainCharge(s, a, u);
      break;
    case ActionKind::kAttack:
      why = explainAttack(s, a, u);
      break;
    default:
      why = explainFire(s, a, u);
      break;
  }
  return why.empty() ? "not legal here" : why;
}

}  // namespace morne::env
