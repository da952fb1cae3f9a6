// explainIllegal (env/io/notation.h): why an action is refused, as a reason code, the rule and a
// sentence, for the protocol's error replies. It re-asks the rule functions in the order a
// player would check them.

#include "env/check.h"
#include "env/combat.h"
#include "env/control.h"
#include "env/fire.h"
#include "env/io/notation.h"
#include "env/movement.h"
#include "env/rules.h"

namespace morne::env {

namespace {

using R = RefusalReason;

std::string unitId(const GameState& s, int u) { return u >= 0 ? s.sc().unit(u).id : "?"; }

// V-ROUT-2, V-PUR-3: a router or a pursuer takes no voluntary action.
std::optional<Refusal> explainOutOfControl(const GameState& s, int u) {
  if (s.routed(u)) {
    return Refusal{R::kOutOfControl, "V-ROUT-2",
                   unitId(s, u) + " is routed; it acts only by its rout until it rallies"};
  }
  if (s.pursuing(u)) {
    return Refusal{R::kOutOfControl, "V-PUR-3",
                   unitId(s, u) + " is pursuing " + unitId(s, s.moraleOf(u).pursued - 1) +
                       "; it acts only by its pursuit until it stops"};
  }
  return std::nullopt;
}

Refusal explainMove(const GameState& s, Action a, int u) {
  const Scenario& sc = s.sc();
  const std::string id = unitId(s, u);
  const UnitState& us = s.unit(u);
  if (const auto r = explainOutOfControl(s, u)) return *r;
  if (us.flags & unit_flag::kStuck)
    return {R::kStuck, "MV-MARSH-1", id + " is stuck in a marsh for this phase"};
  if (us.flags & unit_flag::kCharged)
    return {R::kMovementOver, "MV-CHG-5", id + " charged; its movement is over"};
  if (us.flags & unit_flag::kHalted) {
    return {R::kMovementOver, "MV-ZOC-2",
            id + " entered an enemy-controlled hex; its movement is over"};
  }
  if (us.mp <= 0)
    return {R::kNotEnoughMovementPoints, "MV-GEN-2", id + " has no movement points left"};
  const Hexside& h = sc.side(a.cell, a.arg);
  if (h.neighbor == kNoCell) return {R::kOffMap, "M-HEX-3", "that step leaves the map"};
  const std::string to = sc.label(h.neighbor);
  if (!h.movable) {
    if (h.isCliff()) {
      return {R::kImpassableHexside, "MV-COST-4",
              "hexside " + sc.label(a.cell) + "-" + to + " is a cliff"};
    }
    return {R::kImpassableHexside, "MV-COST-2",
            "hexside " + sc.label(a.cell) + "-" + to + " is a " + std::string(waterName(h.water)) +
                " without bridge or ford"};
  }
  if (const int v = s.unitAt(h.neighbor); v >= 0) {
    return {R::kHexOccupied, "U-STACK-1",
            to + " holds " + unitId(s, v) + "; no stacking or passing through"};
  }
  if (s.demoralised(u) && enemyControlled(s, h.neighbor, s.sideOf(u))) {
    return {R::kDemoralised, "MV-ZOC-4",
            id + " is demoralised and may not enter enemy-controlled " + to};
  }
  GameState probe = s;  // the cost as stepCost computes it, whatever the points left
  setUnitMp(probe, u, zobrist::kMaxValue - 1);
  const int cost = stepCost(probe, u, a.arg, nullptr);
  return {R::kNotEnoughMovementPoints, "MV-GEN-2",
          "entering " + to + " costs " + std::to_string(cost) + " movement points; " + id +
              " has " + std::to_string(us.mp)};
}

std::optional<Refusal> explainCharge(const GameState& s, Action a, int u) {
  const Scenario& sc = s.sc();
  const std::string id = unitId(s, u);
  if (s.typeOf(u) != UnitType::kCavalry)
    return Refusal{R::kNotCavalry, "MV-CHG-1", id + " is not cavalry; only cavalry charges"};
  if (s.has(u, unit_flag::kCharged))
    return Refusal{R::kAlreadyCharged, "MV-CHG-5", id + " has already charged this turn"};
  if (const auto r = explainOutOfControl(s, u)) return r;
  if (s.demoralised(u))
    return Refusal{R::kDemoralised, "U-DEM-1", id + " is demoralised and may not charge"};
  if (sc.rules().charge_requires_move && !s.has(u, unit_flag::kStepped)) {
    return Refusal{R::kChargeWithoutMove, "MV-CHG-5",
                   id + " has not moved this phase; a charge follows a move"};
  }
  const Hexside& h = sc.side(a.cell, a.arg);
  const int v = h.neighbor == kNoCell ? -1 : s.unitAt(h.neighbor);
  if (v < 0 || s.sideOf(v) == s.sideOf(u))
    return Refusal{R::kNoEnemyTarget, "MV-CHG-1", "no enemy unit in that direction"};
  if (!h.contact) {
    return Refusal{R::kNotInContact, "M-CONTACT-1", id + " is not in contact with " + unitId(s, v)};
  }
  if (isGeneral(s.typeOf(v))) {
    return Refusal{R::kGeneralImmune, "MV-CHG-5",
                   unitId(s, v) + " is a general; generals are immune to charges"};
  }
  return std::nullopt;
}

std::optional<Refusal> explainAttack(const GameState& s, Action a, int u) {
  const Scenario& sc = s.sc();
  const std::string id = unitId(s, u);
  if (s.has(u, unit_flag::kAttacked))
    return Refusal{R::kAlreadyAttacked, "C-GEN-1", id + " has already attacked this phase"};
  if (const auto r = explainOutOfControl(s, u)) return r;
  if (s.demoralised(u))
    return Refusal{R::kDemoralised, "C-GEN-3", id + " is demoralised and may not attack"};
  const UnitType type = s.typeOf(u);
  if ((isArtillery(type) || isGeneral(type)) && !sc.rules().artillery_and_generals_attack) {
    return Refusal{R::kCannotAttack, "C-GEN-4",
                   "artillery and generals do not attack under this scenario's rules"};
  }
  const int v = attackTarget(s, a);
  if (v < 0 || s.sideOf(v) == s.sideOf(u))
    return Refusal{R::kNoEnemyTarget, "C-GEN-2", "no enemy unit in that direction"};
  if (s.has(v, unit_flag::kDefended)) {
    return Refusal{R::kAlreadyDefended, "C-GEN-1",
                   unitId(s, v) + " has already been attacked this phase"};
  }
  if (!sc.side(a.cell, a.arg).contact) {
    return Refusal{R::kNotInContact, "C-GEN-2",
                   "no combat across a river, major river (unless bridged) or cliff"};
  }
  if (combatOdds(s, u, v).attack == 0)
    return Refusal{R::kZeroStrength, "C-RATIO-4", "the attack would have strength 0"};
  return std::nullopt;
}

Refusal explainFire(const GameState& s, Action a, int u) {
  const Scenario& sc = s.sc();
  const std::string id = unitId(s, u);
  if (!isArtillery(s.typeOf(u))) return {R::kNotArtillery, "F-GEN-1", id + " is not artillery"};
  if (s.has(u, unit_flag::kFired))
    return {R::kAlreadyFired, "F-GEN-1", id + " has already fired this phase"};
  if (const auto r = explainOutOfControl(s, u)) return *r;
  const Terrain t = sc.terrain(a.cell);
  if (t == Terrain::kWoods || t == Terrain::kVillage)
    return {R::kFireFromCover, "F-GEN-4", "artillery cannot fire out of woods or a village"};
  if (!canBombard(s, u))
    return {R::kFireNotAllowed, "F-GEN-7", id + " may not fire under this scenario's rules"};
  const int v = fireTarget(s, a);
  if (v < 0 || s.sideOf(v) == s.sideOf(u))
    return {R::kNoEnemyTarget, "F-GEN-3", "no enemy unit on the target hex"};
  const int d = sc.distance(a.cell, s.unit(v).cell);
  if (d > sc.unit(u).range) {
    return {R::kOutOfRange, "F-GEN-3",
            "the target is " + std::to_string(d) + " hexes away; " + id + "'s range is " +
                std::to_string(sc.unit(u).range)};
  }
  return {R::kNoLineOfSight, "F-GEN-3",
          "no line of sight from " + sc.label(a.cell) + " to " + sc.label(s.unit(v).cell)};
}

}  // namespace

std::optional<Refusal> explainIllegal(const GameState& s, Action a) {
  if (isLegal(s, a)) return std::nullopt;
  if (s.isTerminal()) return Refusal{R::kGameOver, "G-END-1", "the game is over"};
  if (s.isChanceNode()) {
    return Refusal{R::kChancePending, "RNG-5",
                   "a chance event is pending; apply one of its outcomes first"};
  }
  const Scenario& sc = s.sc();
  if (s.charge_window >= 0) {
    return Refusal{R::kChargeDecisionPending, "F-REACT-6",
                   unitId(s, s.charge_window) +
                       " must first decide whether to charge (\"hold\" or a charge) "
                       "before the reaction fire its step triggered"};
  }
  const std::string phase(phaseName(s.phase));
  switch (a.kind) {
    case ActionKind::kEnd:
      if (s.phase == Phase::kSetup)
        return Refusal{R::kSetupIncomplete, "S-2", "set-up ends when every unit is placed"};
      return Refusal{R::kWrongPhase, "G-TURN-2", "\"end\" is not available now"};
    case ActionKind::kHold:
      return Refusal{R::kWrongPhase, "F-REACT-6",
                     "\"hold\" only answers the charge decision before reaction fire"};
    case ActionKind::kPlace:
      if (s.phase != Phase::kSetup)
        return Refusal{R::kWrongPhase, "S-2", "units are placed only in the set-up phase"};
      if (!sc.inSetupZone(s.side, a.cell)) {
        return Refusal{
            R::kOutsideSetupZone, "S-3",
            sc.label(a.cell) + " is outside " + std::string(sideColor(s.side)) + "'s set-up zone"};
      }
      return Refusal{R::kHexOccupied, "S-3", sc.label(a.cell) + " is occupied"};
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
    return Refusal{R::kWrongPhase, "G-TURN-2",
                   "\"" + std::string(actionKindName(a.kind)) + "\" belongs to the " +
                       std::string(phaseName(needed)) + " phase; this is the " + phase + " phase"};
  }
  const int u = s.unitAt(a.cell);
  if (u < 0) return Refusal{R::kNoUnit, "", "no unit at " + sc.label(a.cell)};
  if (s.sideOf(u) != s.side) {
    return Refusal{R::kNotYourUnit, "G-TURN-2",
                   unitId(s, u) + " belongs to " + std::string(sideColor(s.sideOf(u))) + "; " +
                       std::string(sideColor(s.side)) + " is to act"};
  }
  std::optional<Refusal> why;
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
  MORNE_CHECK(why.has_value(), "an illegal action without an explanation");
  return why;
}

}  // namespace morne::env
