// Seed 003's tactical melee factors that map to hex facts (V-MEL-*), as one more die modifier
// of the Morne Plaine combat: the attacker's factors count for the die, the defender's
// against it.

#include "env/combat.h"

namespace morne::env {

bool attackFromFlankOrRear(const GameState& s, int attacker, int defender) {
  const Scenario& sc = s.sc();
  const CellId at = s.unit(defender).cell;
  const auto attack_dir = directionBetween(sc.hexOf(at), sc.hexOf(s.unit(attacker).cell));
  if (!attack_dir) return false;
  int fronts = 0;   // the engaged enemies: other units in order in contact with the defender
  int outside = 0;  // those whose front the attacker is outside
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(at, d);
    const int v = h.neighbor == kNoCell ? -1 : s.unitAt(h.neighbor);
    if (v < 0 || v == attacker || s.sideOf(v) == s.sideOf(defender) || !h.contact) continue;
    if (s.outOfControl(v) || isGeneral(s.typeOf(v))) continue;
    const int apart = (d - *attack_dir + kNumDirections) % kNumDirections;
    ++fronts;
    if (apart != 0 && apart != 1 && apart != kNumDirections - 1) ++outside;  // another front
  }
  if (sc.rules().flank_outside == FlankOutside::kAnyFront) return outside > 0;
  return fronts > 0 && outside == fronts;
}

namespace {

// The factors of one side's unit that do not depend on the opponent: fresh troops, fatigue,
// disorder (V-MEL-2, V-MEL-3). Seed 003: « Troupe fraîche (infanterie, cavalerie) 1 », fresh
// being « Unité n’ayant effectué aucun combat au corps à corps ni de marche forcée ».
int stateFactor(const GameState& s, int u) {
  const UnitType type = s.typeOf(u);
  const bool fresh = (isInfantry(type) || type == UnitType::kCavalry) &&
                     !s.hasMorale(u, morale_bit::kFoughtBefore);
  int f = (fresh ? 1 : 0) - s.moraleOf(u).fatigue;  // « Par point de fatigue -1 »
  if (s.routed(u)) f -= 5;                          // in disorder
  if (s.pursuing(u)) f -= 3;                        // without formation
  return f;
}

// Seed 003's flank or rear factor of the attacker: infantry « Attaquant de flanc ou de dos » 2,
// « ... dans une mêlée » 1; cavalry « Prise de flanc ou de dos au premier tour » 3, « Idem dans
// une mêlée déjà constituée » 2; other arms none. The defender is in a melee already when it
// has fought since its side's last rally step.
int flankFactor(const GameState& s, int attacker, int defender) {
  const UnitType type = s.typeOf(attacker);
  if (!(isInfantry(type) || type == UnitType::kCavalry)) return 0;
  if (!attackFromFlankOrRear(s, attacker, defender)) return 0;
  const int first_round = type == UnitType::kCavalry ? 3 : 2;
  return s.hasMorale(defender, morale_bit::kFought) ? first_round - 1 : first_round;
}

}  // namespace

int meleeFactorModifier(const GameState& s, int attacker, int defender) {
  if (s.sc().rules().melee_factors == MeleeFactors::kNone) return 0;
  int m = stateFactor(s, attacker) - stateFactor(s, defender);
  if (s.hasMorale(defender, morale_bit::kFellBack)) m += 2;  // following up a retreating enemy
  return m + flankFactor(s, attacker, defender);
}

}  // namespace morne::env
