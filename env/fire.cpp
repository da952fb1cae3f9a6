#include "env/fire.h"

#include "env/control.h"
#include "env/morale_model.h"
#include "env/occupy.h"

namespace morne::env {

namespace {

// Artillery cannot fire out of woods or a village (F-GEN-4).
bool firingHex(const Scenario& sc, CellId c) {
  const Terrain t = sc.terrain(c);
  return t != Terrain::kWoods && t != Terrain::kVillage;
}

bool adjacentToEnemy(const GameState& s, int u) {
  const Scenario& sc = s.sc();
  for (int d = 0; d < kNumDirections; ++d) {
    const CellId n = sc.neighbor(s.unit(u).cell, d);
    if (n == kNoCell) continue;
    const int v = s.unitAt(n);
    if (v >= 0 && s.sideOf(v) != s.sideOf(u)) return true;
  }
  return false;
}

// Whether the target's next loss point depends on the coin: not when MO points would spill to
// VC anyway (a demoralised unit, F-LOSS-2). A general's MO points are lost (F-LOSS-3), so for
// a general the coin matters.
bool coinMatters(const GameState& s, int target) {
  return isGeneral(s.typeOf(target)) || s.unit(target).mo > 0;
}

// One loss point to MO or VC, with the spill-over and general rules (F-LOSS-2..4).
void takeLossPoint(GameState& s, int target, bool to_morale, EventLog* log) {
  if (to_morale && isGeneral(s.typeOf(target))) {
    record(log, {.type = EventType::kLossIgnored, .unit = static_cast<int8_t>(target)});
    return;
  }
  if (to_morale && s.unit(target).mo > 0) {
    changeMorale(s, target, -1, log);
  } else {
    loseVc(s, target, 1, log);
  }
}

// Reaction fire of artillery `gun` at `mover` is available now (F-REACT-1..4): the moving
// unit's own ZOC does not count (F-REACT-3, MV-ZOC-5).
bool canReact(const GameState& s, int gun, int mover) {
  const Scenario& sc = s.sc();
  if (!isArtillery(s.typeOf(gun)) || !s.onMap(gun) || s.sideOf(gun) == s.sideOf(mover))
    return false;
  if (s.has(gun, unit_flag::kReactionUsed) || !firingHex(sc, s.unit(gun).cell)) return false;
  if (s.demoralised(gun) && !sc.rules().artillery_fires_when_demoralised) return false;
  if (s.outOfControl(gun)) return false;  // V-ROUT-2, V-PUR-3
  const auto dir = directionBetween(sc.hexOf(s.unit(gun).cell), sc.hexOf(s.unit(mover).cell));
  if (!dir || !sc.side(s.unit(gun).cell, *dir).contact) return false;
  return countEnemyZoc(s, s.unit(gun).cell, s.sideOf(gun), mover) == 0;
}

// The next artillery unit to react to `mover`, in the order of the reaction_fire_order switch
// (F-REACT-7), or -1.
int nextReactingGun(const GameState& s, int mover) {
  const bool ascending = s.sc().rules().reaction_fire_order == ReactionOrder::kAscendingId;
  for (int i = 0; i < s.num_units; ++i) {
    const int gun = ascending ? i : s.num_units - 1 - i;
    if (canReact(s, gun, mover)) return gun;
  }
  return -1;
}

void fireNextReaction(GameState& s, EventLog* log) {
  const int mover = s.reacting_to;
  const int gun = s.onMap(mover) ? nextReactingGun(s, mover) : -1;
  if (gun < 0) {
    setReaction(s, -1, -1);
    return;
  }
  addUnitFlags(s, gun, unit_flag::kReactionUsed);
  record(log, {.type = EventType::kFire,
               .unit = static_cast<int8_t>(gun),
               .other = static_cast<int8_t>(mover),
               .from = s.unit(gun).cell,
               .to = s.unit(mover).cell,
               .a = 1});
  setPending(s, {ChanceKind::kFireDie, static_cast<int8_t>(gun), static_cast<int8_t>(mover), 0,
                 pending_flag::kReaction});
}

// Seed 001's test after a fire (V-MOR-8, switch ancient_tests): « Toute unité suite à un tir ».
bool testsAfterFire(const GameState& s, int target) {
  const RuleSwitches& rules = s.sc().rules();
  return rules.morale_model == MoraleModel::kAncient2d6 &&
         rules.ancient_tests == AncientTests::kEveryFireAndCombat && s.onMap(target) &&
         !isGeneral(s.typeOf(target)) && !s.routed(target);
}

// The fire of `gun` at `target` is over: the target tests when the switches say so, then
// reaction fire moves on to the next artillery unit.
void finishFire(GameState& s, int gun, int target, EventLog* log) {
  setPending(s, {});
  if (testsAfterFire(s, target)) {
    setPending(s, {ChanceKind::kMoraleCheck, static_cast<int8_t>(target), static_cast<int8_t>(gun),
                   0, static_cast<uint8_t>(TestOccasion::kAfterFire)});
    return;
  }
  continueReactionFire(s, log);
}

}  // namespace

FireModifiers fireModifiers(const GameState& s, int gun, int target, bool reaction) {
  const Scenario& sc = s.sc();
  FireModifiers m;
  m.distance = 1 - sc.distance(s.unit(gun).cell, s.unit(target).cell);
  const UnitType type = s.typeOf(target);
  if (type == UnitType::kCavalry || type == UnitType::kGeneral) m.target_type = 1;
  if (isArtillery(type)) m.target_type = -2;
  const Terrain t = sc.terrain(s.unit(target).cell);
  if (t == Terrain::kVillage) m.terrain = -1;
  if (t == Terrain::kFort) m.terrain = -2;
  if (reaction) m.reaction = -1;
  return m;
}

int fireLosses(const GameState& s, int gun, int target, bool reaction, int die) {
  const int sum = s.sc().unit(gun).vt + fireModifiers(s, gun, target, reaction).total() + die;
  return sum < 0 ? 0 : sum / 2;
}

bool canBombard(const GameState& s, int gun) {
  const RuleSwitches& rules = s.sc().rules();
  if (!isArtillery(s.typeOf(gun)) || !s.onMap(gun) || s.has(gun, unit_flag::kFired)) return false;
  if (!firingHex(s.sc(), s.unit(gun).cell)) return false;
  if (s.demoralised(gun) && !rules.artillery_fires_when_demoralised) return false;
  if (s.outOfControl(gun)) return false;  // V-ROUT-2, V-PUR-3
  return rules.artillery_fires_when_adjacent || !adjacentToEnemy(s, gun);
}

int fireTarget(const GameState& s, Action a) {
  const Scenario& sc = s.sc();
  const auto offsets = fireOffsets(sc.maxRange());
  if (a.cell == kNoCell || a.arg >= offsets.size()) return -1;
  const CellId c = sc.cellAt(sc.hexOf(a.cell) + offsets[a.arg]);
  return c == kNoCell ? -1 : s.unitAt(c);
}

void generateFireActions(const GameState& s, ActionList& out) {
  const Scenario& sc = s.sc();
  const auto offsets = fireOffsets(sc.maxRange());
  std::array<int8_t, kMaxUnits> order;
  const int n = phasingUnitsByCell(s, order);
  for (int i = 0; i < n; ++i) {
    const int gun = order[static_cast<size_t>(i)];
    if (!canBombard(s, gun)) continue;
    const CellId from = s.unit(gun).cell;
    const int range = sc.unit(gun).range;
    const size_t in_range = static_cast<size_t>(3 * range * (range + 1));  // rings 1..range
    for (size_t k = 0; k < in_range && k < offsets.size(); ++k) {
      const CellId c = sc.cellAt(sc.hexOf(from) + offsets[k]);
      if (c == kNoCell) continue;
      const int target = s.unitAt(c);
      if (target < 0 || s.sideOf(target) == s.side || !sc.visible(from, c)) continue;  // F-GEN-3
      out.push_back({ActionKind::kFire, static_cast<uint8_t>(k), from});
    }
  }
}

void declareFire(GameState& s, int gun, int target, EventLog* log) {
  addUnitFlags(s, gun, unit_flag::kFired);
  record(log, {.type = EventType::kFire,
               .unit = static_cast<int8_t>(gun),
               .other = static_cast<int8_t>(target),
               .from = s.unit(gun).cell,
               .to = s.unit(target).cell});
  setPending(s,
             {ChanceKind::kFireDie, static_cast<int8_t>(gun), static_cast<int8_t>(target), 0, 0});
}

void resolveFireDie(GameState& s, int value, EventLog* log) {
  const Pending p = s.pending;
  const bool reaction = (p.flags & pending_flag::kReaction) != 0;
  const int losses = fireLosses(s, p.unit, p.target, reaction, value);
  record(log, {.type = EventType::kFireResult,
               .unit = p.unit,
               .other = p.target,
               .a = static_cast<int16_t>(value),
               .b = static_cast<int16_t>(fireModifiers(s, p.unit, p.target, reaction).total()),
               .c = static_cast<int16_t>(losses)});
  if (losses == 0) {
    finishFire(s, p.unit, p.target, log);
    return;
  }
  if (!coinMatters(s, p.target)) {  // every point goes to VC whatever the coins say
    loseVc(s, p.target, losses, log);
    finishFire(s, p.unit, p.target, log);
    return;
  }
  const bool single = s.sc().rules().fire_loss_split == FireLossSplit::kSingleCoin;
  setPending(s, {ChanceKind::kFireCoin, p.unit, p.target, static_cast<int8_t>(losses),
                 static_cast<uint8_t>(p.flags | (single ? pending_flag::kSingleCoin : 0))});
}

void resolveFireCoin(GameState& s, int value, EventLog* log) {
  const Pending p = s.pending;
  const int points = (p.flags & pending_flag::kSingleCoin) ? p.count : 1;
  record(log, {.type = EventType::kFireCoin,
               .unit = p.target,
               .a = static_cast<int16_t>(value),
               .b = static_cast<int16_t>(points)});
  for (int i = 0; i < points && s.onMap(p.target); ++i) {
    takeLossPoint(s, p.target, value == kCoinMorale, log);
  }
  const int left = p.count - points;
  if (left == 0 || !s.onMap(p.target)) {
    finishFire(s, p.unit, p.target, log);
  } else if (!coinMatters(s, p.target)) {
    loseVc(s, p.target, left, log);
    finishFire(s, p.unit, p.target, log);
  } else {
    setPending(s, {ChanceKind::kFireCoin, p.unit, p.target, static_cast<int8_t>(left), p.flags});
  }
}

void continueReactionFire(GameState& s, EventLog* log) {
  if (s.reacting_to >= 0) fireNextReaction(s, log);
}

bool reactionFireTriggered(const GameState& s, int mover) {
  return s.onMap(mover) && nextReactingGun(s, mover) >= 0;
}

void startReactionFire(GameState& s, int mover, EventLog* log) {
  setReaction(s, mover, -1);
  fireNextReaction(s, log);
}

}  // namespace morne::env
