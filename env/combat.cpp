#include "env/combat.h"

#include <algorithm>

#include "env/morale_model.h"

namespace morne::env {

namespace {

// The hexside from a to the adjacent b, or null if they are not neighbours.
const Hexside* between(const Scenario& sc, CellId a, CellId b) {
  const auto dir = directionBetween(sc.hexOf(a), sc.hexOf(b));
  return dir ? &sc.side(a, *dir) : nullptr;
}

bool inContact(const Scenario& sc, CellId a, CellId b) {
  const Hexside* h = between(sc, a, b);
  return h && h->contact;
}

// C-SUP-3: whether enemy unit v counts as "another enemy unit" that prevents a support.
bool preventsSupport(const GameState& s, int v) {
  return s.sc().rules().support_blocked_by_any_enemy ||
         (!s.demoralised(v) && !isGeneral(s.typeOf(v)));
}

// Whether x is in contact with an enemy unit other than `engaged` (C-SUP-1, C-SUP-2).
bool inContactWithAnotherEnemy(const GameState& s, int x, int engaged) {
  const Scenario& sc = s.sc();
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(s.unit(x).cell, d);
    if (h.neighbor == kNoCell || !h.contact) continue;
    const int v = s.unitAt(h.neighbor);
    if (v >= 0 && v != engaged && s.sideOf(v) != s.sideOf(x) && preventsSupport(s, v)) return true;
  }
  return false;
}

// Whether x supports its side in a combat against the enemy combatant `engaged` (C-SUP-*).
bool supports(const GameState& s, int x, int engaged) {
  const RuleSwitches& rules = s.sc().rules();
  const UnitType type = s.typeOf(x);
  if ((isArtillery(type) || isGeneral(type)) && !rules.artillery_and_generals_support) return false;
  const bool victorious = s.has(x, unit_flag::kVictorious);
  if (s.demoralised(x) && !(victorious && rules.victorious_demoralised_supports)) return false;
  if (s.outOfControl(x)) return false;  // V-ROUT-2, V-PUR-3
  if (!inContact(s.sc(), s.unit(x).cell, s.unit(engaged).cell)) return false;
  return victorious || !inContactWithAnotherEnemy(s, x, engaged);
}

bool doublesInfantry(Terrain t) {
  return t == Terrain::kWoods || t == Terrain::kVillage || t == Terrain::kFort;
}

// A VC after the terrain effects, applied in the order of the vc_modifier_order switch, each
// rounded down (C-TER-3, C-TER-4). `attacker` keeps a VC of 1 from the stream division.
int modifiedVc(const GameState& s, int vc, uint8_t effects, bool attacker) {
  auto stream = [&](int v) {
    return (effects & vc_effect::kStreamDivided) && (!attacker || v > 1) ? 2 * v / 3 : v;
  };
  auto halve = [&](int v) { return (effects & vc_effect::kHalved) ? v / 2 : v; };
  auto twice = [&](int v) { return (effects & vc_effect::kDoubled) ? 2 * v : v; };
  if (s.sc().rules().vc_modifier_order == VcModifierOrder::kStreamHalveDouble) {
    return twice(halve(stream(vc)));
  }
  return stream(halve(twice(vc)));
}

void addContributor(const GameState& s, CombatOdds& odds, int u, bool attacking, bool principal,
                    uint8_t effects) {
  CombatContributor c;
  c.unit = static_cast<int8_t>(u);
  c.attacking = attacking;
  c.principal = principal;
  c.base_vc = s.unit(u).vc;
  c.effects = effects;
  c.vc = static_cast<int8_t>(modifiedVc(s, c.base_vc, effects, attacking && principal));
  odds.units.push_back(c);
  (attacking ? odds.attack : odds.defence) += c.vc;
}

}  // namespace

int oddsColumn(int attack, int defence) {
  if (attack <= 0) return -7;
  if (defence <= 0) return 7;
  if (attack >= defence) return std::min(attack / defence, 8) - 1;
  return -(std::min((defence + attack - 1) / attack, 8) - 1);
}

int combatMorale(const GameState& s, int u) {
  return isGeneral(s.typeOf(u)) ? s.unit(u).vc + s.sc().unit(u).radius : s.unit(u).mo;
}

CombatOdds combatOdds(const GameState& s, int attacker, int defender) {
  const Scenario& sc = s.sc();
  const RuleSwitches& rules = sc.rules();
  const CellId ac = s.unit(attacker).cell;
  const CellId dc = s.unit(defender).cell;
  CombatOdds odds;

  // Attacker: fort halving for cavalry, stream division (C-TER-1, C-TER-3).
  uint8_t fx = 0;
  if (s.typeOf(attacker) == UnitType::kCavalry && sc.terrain(ac) == Terrain::kFort)
    fx |= vc_effect::kHalved;
  if (between(sc, ac, dc)->divides) fx |= vc_effect::kStreamDivided;
  addContributor(s, odds, attacker, true, true, fx);

  // Offensive supports: in contact with the defender (C-SUP-1, C-TER-2).
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(dc, d);
    const int x = h.neighbor == kNoCell ? -1 : s.unitAt(h.neighbor);
    if (x < 0 || x == attacker || s.sideOf(x) != s.sideOf(attacker) || !supports(s, x, defender))
      continue;
    fx = s.has(x, unit_flag::kVictorious) ? vc_effect::kVictorious : 0;
    if (rules.fort_halves_cavalry_support && s.typeOf(x) == UnitType::kCavalry &&
        sc.terrain(h.neighbor) == Terrain::kFort) {
      fx |= vc_effect::kHalved;
    }
    if (rules.stream_divides_supports != StreamSupports::kNone && h.divides)
      fx |= vc_effect::kStreamDivided;
    addContributor(s, odds, x, true, false, fx);
  }

  // Defender: infantry doubled in woods, village, fort (C-TER-1).
  fx = isInfantry(s.typeOf(defender)) && doublesInfantry(sc.terrain(dc)) ? vc_effect::kDoubled : 0;
  addContributor(s, odds, defender, false, true, fx);

  // Defensive supports: in contact with the attacker (C-SUP-2, C-TER-2).
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(ac, d);
    const int y = h.neighbor == kNoCell ? -1 : s.unitAt(h.neighbor);
    if (y < 0 || y == defender || s.sideOf(y) != s.sideOf(defender) || !supports(s, y, attacker))
      continue;
    fx = s.has(y, unit_flag::kVictorious) ? vc_effect::kVictorious : 0;
    const CellId terrain_hex = rules.support_doubling_hex == SupportHex::kOwn ? h.neighbor : dc;
    if (isInfantry(s.typeOf(y)) && doublesInfantry(sc.terrain(terrain_hex)))
      fx |= vc_effect::kDoubled;
    if (rules.stream_divides_supports == StreamSupports::kAll && h.divides)
      fx |= vc_effect::kStreamDivided;
    addContributor(s, odds, y, false, false, fx);
  }

  odds.column = oddsColumn(odds.attack, odds.defence);

  // Die modifiers (C-TER-1, C-TER-5, C-DRM-2, C-DRM-3).
  const Terrain at = sc.terrain(ac);
  const Terrain dt = sc.terrain(dc);
  if (dt == Terrain::kHamlet) odds.hamlet = -1;
  const int climb = sc.level(dc) - sc.level(ac);
  odds.slope = climb < 0 ? 1 : (climb > 0 ? -1 : 0);
  odds.marsh = (at == Terrain::kMarsh ? -1 : 0) + (dt == Terrain::kMarsh ? 1 : 0);
  odds.dune = (at == Terrain::kDune ? -1 : 0) + (dt == Terrain::kDune ? 1 : 0);
  odds.fort = at == Terrain::kFort ? -1 : 0;
  odds.morale = (combatMorale(s, attacker) - combatMorale(s, defender)) / 2;  // truncates
  odds.melee = meleeFactorModifier(s, attacker, defender);
  return odds;
}

bool canAttack(const GameState& s, int attacker, int defender) {
  const RuleSwitches& rules = s.sc().rules();
  if (s.sideOf(attacker) != s.side || !s.onMap(attacker) || !s.onMap(defender)) return false;
  if (s.sideOf(defender) == s.side || s.has(attacker, unit_flag::kAttacked))
    return false;                                                                      // C-GEN-1
  if (s.has(defender, unit_flag::kDefended) || s.demoralised(attacker)) return false;  // C-GEN-1/3
  if (s.outOfControl(attacker)) return false;  // V-ROUT-2, V-PUR-3
  const UnitType type = s.typeOf(attacker);
  if ((isArtillery(type) || isGeneral(type)) && !rules.artillery_and_generals_attack) return false;
  if (!inContact(s.sc(), s.unit(attacker).cell, s.unit(defender).cell)) return false;  // C-GEN-2
  return rules.zero_strength_attack == ZeroStrengthAttack::kOneToEight ||
         combatOdds(s, attacker, defender).attack > 0;  // C-RATIO-4
}

int attackTarget(const GameState& s, Action a) {
  if (a.cell == kNoCell || a.arg >= kNumDirections) return -1;
  const CellId c = s.sc().neighbor(a.cell, a.arg);
  return c == kNoCell ? -1 : s.unitAt(c);
}

void generateAttackActions(const GameState& s, ActionList& out) {
  std::array<int8_t, kMaxUnits> order;
  const int n = phasingUnitsByCell(s, order);
  for (int i = 0; i < n; ++i) {
    const int u = order[static_cast<size_t>(i)];
    if (s.has(u, unit_flag::kAttacked) || s.demoralised(u) || s.outOfControl(u)) continue;
    for (int d = 0; d < kNumDirections; ++d) {
      const Action a{ActionKind::kAttack, static_cast<uint8_t>(d), s.unit(u).cell};
      const int target = attackTarget(s, a);
      if (target >= 0 && canAttack(s, u, target)) out.push_back(a);
    }
  }
}

bool testsBeforeAttacking(const GameState& s, int attacker, int defender, int column) {
  if (s.sc().rules().morale_model != MoraleModel::kAncient2d6) return false;
  if (!isInfantry(s.typeOf(attacker))) return false;  // dromedaries too (U-TYPE-3, U-TYPE-4)
  // « Notez qu'il n'est pas nécessaire de tester son moral pour attaquer un ennemi en déroute
  // ou de flanc. »
  return column <= -1 && !s.routed(defender) && !attackFromFlankOrRear(s, attacker, defender);
}

void declareAttack(GameState& s, int attacker, int defender, EventLog* log) {
  const CombatOdds odds = combatOdds(s, attacker, defender);
  addUnitFlags(s, attacker, unit_flag::kAttacked);
  record(log, {.type = EventType::kAttack,
               .unit = static_cast<int8_t>(attacker),
               .other = static_cast<int8_t>(defender),
               .from = s.unit(attacker).cell,
               .to = s.unit(defender).cell,
               .a = static_cast<int16_t>(odds.attack),
               .b = static_cast<int16_t>(odds.defence),
               .c = static_cast<int16_t>(odds.column)});
  if (testsBeforeAttacking(s, attacker, defender, odds.column)) {
    setPending(
        s, {ChanceKind::kMoraleCheck, static_cast<int8_t>(attacker), static_cast<int8_t>(defender),
            0, static_cast<uint8_t>(TestOccasion::kPoorOdds)});
    return;
  }
  startCombat(s, attacker, defender, odds);
}

void startCombat(GameState& s, int attacker, int defender, const CombatOdds& odds) {
  addUnitFlags(s, defender, unit_flag::kDefended);
  CombatRecord c;
  c.attacker = static_cast<int8_t>(attacker);
  c.defender = static_cast<int8_t>(defender);
  c.attacker_cell = s.unit(attacker).cell;
  c.defender_cell = s.unit(defender).cell;
  c.column = static_cast<int8_t>(odds.column);
  c.die_modifier = static_cast<int8_t>(odds.dieModifier());
  setCombat(s, c);
  setPending(s, {ChanceKind::kCombatDie, c.attacker, c.defender, 0, 0});
}

}  // namespace morne::env
