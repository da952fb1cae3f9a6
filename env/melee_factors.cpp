// Seed 003's tactical melee factors that map to hex facts (V-MEL-*), as one more die modifier
// of the Morne Plaine combat: the attacker's factors count for the die, the defender's
// against it.

#include "env/combat.h"

namespace morne::env {

namespace {

// V-MEL-2 flank or rear: the defender is in contact with another enemy unit in order (the one
// it faces), and the attacker's hexside is not next to that unit's.
bool fromFlankOrRear(const GameState& s, int attacker, int defender) {
  const Scenario& sc = s.sc();
  const CellId at = s.unit(defender).cell;
  const auto attack_dir = directionBetween(sc.hexOf(at), sc.hexOf(s.unit(attacker).cell));
  if (!attack_dir) return false;
  bool faced = false;
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(at, d);
    const int v = h.neighbor == kNoCell ? -1 : s.unitAt(h.neighbor);
    if (v < 0 || v == attacker || s.sideOf(v) == s.sideOf(defender) || !h.contact) continue;
    if (s.outOfControl(v) || isGeneral(s.typeOf(v))) continue;
    const int apart = (d - *attack_dir + kNumDirections) % kNumDirections;
    if (apart == 0 || apart == 1 || apart == kNumDirections - 1) return false;  // same front
    faced = true;
  }
  return faced;
}

// The factors of one side's unit that do not depend on the opponent: fresh troops, fatigue,
// disorder (V-MEL-2, V-MEL-3).
int stateFactor(const GameState& s, int u) {
  const int fatigue = s.moraleOf(u).fatigue;
  int f = fatigue == 0 ? 1 : -fatigue;  // fresh troops +1, else -1 per fatigue point
  if (s.routed(u)) f -= 5;              // in disorder
  if (s.pursuing(u)) f -= 3;            // without formation
  return f;
}

}  // namespace

int meleeFactorModifier(const GameState& s, int attacker, int defender) {
  if (s.sc().rules().melee_factors == MeleeFactors::kNone) return 0;
  int m = stateFactor(s, attacker) - stateFactor(s, defender);
  if (s.hasMorale(defender, morale_bit::kFellBack)) m += 2;  // following up a retreating enemy
  if (fromFlankOrRear(s, attacker, defender)) {
    m += s.typeOf(attacker) == UnitType::kCavalry ? 3 : 2;
  }
  return m;
}

}  // namespace morne::env
