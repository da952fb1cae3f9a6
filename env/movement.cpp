#include "env/movement.h"

#include <algorithm>

#include "env/control.h"
#include "env/fire.h"
#include "env/morale_model.h"
#include "env/occupy.h"
#include "env/rout.h"

namespace morne::env {

namespace {

constexpr uint16_t kCannotStep = unit_flag::kHalted | unit_flag::kStuck;

bool anyCharge(const GameState& s, int u) {
  for (int d = 0; d < kNumDirections; ++d) {
    if (canCharge(s, u, d)) return true;
  }
  return false;
}

// MV-GEN-4 steps 3 and 4, once the step and its marsh test are done: a cavalry unit that may
// charge decides first (the charge window); then reaction fire (F-REACT-2, F-REACT-6).
void afterStep(GameState& s, int u, EventLog* log) {
  if (!reactionFireTriggered(s, u)) return;
  if (s.typeOf(u) == UnitType::kCavalry && anyCharge(s, u)) {
    setReaction(s, -1, u);
    return;
  }
  startReactionFire(s, u, log);
}

// Closes the charge window of `cavalry` and resolves the reaction fire its step triggered.
void closeChargeWindow(GameState& s, int cavalry, EventLog* log) {
  setReaction(s, -1, -1);
  startReactionFire(s, cavalry, log);
}

}  // namespace

int movementAllowance(const GameState& s, int u) {
  const UnitInfo& info = s.sc().unit(u);
  const bool in_command = s.has(u, unit_flag::kInCommand);
  if (s.has(u, unit_flag::kStuckHeld)) return 0;
  // V-ROUT-2, V-PUR-3: routers and pursuers move only by their rout or pursuit; V-ROUT-6: halt.
  if (s.outOfControl(u) || s.hasMorale(u, morale_bit::kHaltHeld)) return 0;
  if (s.has(u, unit_flag::kFired)) {
    // F-GEN-6: foot artillery stays put; horse artillery in command makes half a move.
    if (info.type != UnitType::kHorseArtillery || !in_command) return 0;
    const bool up = s.sc().rules().horse_artillery_fired_ma == HalfRounding::kUp;
    return up ? (info.ma + 1) / 2 : info.ma / 2;
  }
  return in_command ? info.ma : info.ma / 2;  // CMD-3
}

int marshStuckThreshold(const GameState& s, int u) {
  switch (s.sc().moveClass(u)) {
    case MoveClass::kInfantry:
      return 1;
    case MoveClass::kCavalry:
    case MoveClass::kGeneral:
      return 2;
    case MoveClass::kArtillery:
      return 3;
    case MoveClass::kDromedary:
      return s.sc().rules().marsh_stuck_dromedary;
  }
  return 0;
}

int stepCost(const GameState& s, int u, int dir, bool* road_step) {
  const Scenario& sc = s.sc();
  const UnitState& us = s.unit(u);
  if ((us.flags & kCannotStep) != 0 || us.mp <= 0) return -1;
  const Hexside& h = sc.side(us.cell, dir);
  if (!h.movable || s.unitAt(h.neighbor) >= 0) return -1;  // MV-COST-2/4, U-STACK-1

  int cost = 0;
  if (h.road && (us.flags & unit_flag::kRoadFree) != 0) {
    // MV-ROAD-2: a free road step; MV-ROAD-4 (switch): it also ignores hexside costs.
    if (!sc.rules().free_road_step_ignores_hexside)
      cost = h.track_cost ? h.track_cost : h.step_extra;
  } else if (h.track_cost > 0) {
    cost = h.track_cost;  // MV-COST-5: a track over a cliff costs its contour lines in total
  } else {
    cost = sc.enterCost(sc.moveClass(u), h.neighbor) + h.step_extra;  // MV-COST-1..3
  }
  if (cost > us.mp) {
    // MV-GEN-2; the minimum_move_one_hex switch allows one step of any cost to a fresh unit.
    const bool first_step = (us.flags & unit_flag::kStepped) == 0;
    if (!(sc.rules().minimum_move_one_hex && first_step)) return -1;
  }
  if (s.demoralised(u) && enemyControlled(s, h.neighbor, s.sideOf(u))) return -1;  // MV-ZOC-4
  if (road_step) *road_step = h.road;
  return cost;
}

bool canCharge(const GameState& s, int u, int dir) {
  if (s.typeOf(u) != UnitType::kCavalry) return false;  // MV-CHG-1 (dromedaries never)
  const UnitState& us = s.unit(u);
  if ((us.flags & unit_flag::kCharged) != 0 || s.demoralised(u) || s.outOfControl(u)) return false;
  if (s.sc().rules().charge_requires_move && (us.flags & unit_flag::kStepped) == 0) return false;
  const Hexside& h = s.sc().side(us.cell, dir);
  if (!h.contact) return false;
  const int target = s.unitAt(h.neighbor);
  // Generals are immune: a charge on one would have no effect (MV-CHG-5 step 2).
  return target >= 0 && s.sideOf(target) != s.sideOf(u) && !isGeneral(s.typeOf(target));
}

void generateMovementActions(const GameState& s, ActionList& out) {
  std::array<int8_t, kMaxUnits> order;
  const int n = phasingUnitsByCell(s, order);
  for (int i = 0; i < n; ++i) {
    const int u = order[static_cast<size_t>(i)];
    for (int d = 0; d < kNumDirections; ++d) {
      if (stepCost(s, u, d, nullptr) >= 0) out.push_back(Action::move(s.unit(u).cell, d));
    }
  }
  for (int i = 0; i < n; ++i) {
    const int u = order[static_cast<size_t>(i)];
    if (s.typeOf(u) != UnitType::kCavalry) continue;
    for (int d = 0; d < kNumDirections; ++d) {
      if (canCharge(s, u, d)) out.push_back(Action::charge(s.unit(u).cell, d));
    }
  }
}

void generateWindowCharges(const GameState& s, ActionList& out) {
  const int u = s.charge_window;
  for (int d = 0; d < kNumDirections; ++d) {
    if (canCharge(s, u, d)) out.push_back(Action::charge(s.unit(u).cell, d));
  }
}

void holdCharge(GameState& s, EventLog* log) {
  const int u = s.charge_window;
  record(log, {.type = EventType::kHold, .unit = static_cast<int8_t>(u)});
  closeChargeWindow(s, u, log);
}

bool hasMovementAction(const GameState& s) {
  if (s.charge_window >= 0) return true;
  for (int u = 0; u < s.num_units; ++u) {
    if (s.sideOf(u) != s.side || !s.onMap(u)) continue;
    for (int d = 0; d < kNumDirections; ++d) {
      if (stepCost(s, u, d, nullptr) >= 0 || canCharge(s, u, d)) return true;
    }
  }
  return false;
}

void applyStep(GameState& s, int u, int dir, EventLog* log) {
  const Scenario& sc = s.sc();
  bool road = false;
  const int cost = stepCost(s, u, dir, &road);
  const CellId from = s.unit(u).cell;
  const CellId to = sc.neighbor(from, dir);
  const uint16_t flags = s.unit(u).flags;
  const uint8_t trail = s.unit(u).trail;

  occupyHex(s, u, to, EntryCause::kMovement, log);
  setUnitTrail(s, u, step_trail::push(trail, dir));
  const int left = std::max(0, s.unit(u).mp - cost);
  setUnitMp(s, u, left);
  // MV-ROAD-2: road steps alternate free and paid; any other step resets the alternation.
  const bool was_free = (flags & unit_flag::kRoadFree) != 0;
  uint16_t next = flags | unit_flag::kMoved | unit_flag::kStepped;
  next = road && !was_free ? static_cast<uint16_t>(next | unit_flag::kRoadFree)
                           : static_cast<uint16_t>(next & ~unit_flag::kRoadFree);
  setUnitFlags(s, u, next);
  record(log, {.type = EventType::kStep,
               .unit = static_cast<int8_t>(u),
               .from = from,
               .to = to,
               .a = static_cast<int16_t>(cost),
               .b = static_cast<int16_t>(left),
               .c = static_cast<int16_t>(road ? 1 : 0)});

  if (enemyControlled(s, to, s.sideOf(u))) {  // MV-ZOC-2
    addUnitFlags(s, u, unit_flag::kHalted);
    record(log, {.type = EventType::kZocStop, .unit = static_cast<int8_t>(u), .to = to});
  }
  if (sc.terrain(to) == Terrain::kMarsh) {  // MV-MARSH-1, resolved by resolveMarshTest
    setPending(s, {ChanceKind::kMarshTest, static_cast<int8_t>(u), -1, 0, 0});
    return;
  }
  afterStep(s, u, log);
}

void resolveMarshTest(GameState& s, int value, EventLog* log) {
  const int u = s.pending.unit;
  setPending(s, {});
  const int threshold = marshStuckThreshold(s, u);
  const bool stuck = value <= threshold;
  record(log, {.type = EventType::kMarshTest,
               .unit = static_cast<int8_t>(u),
               .to = s.unit(u).cell,
               .a = static_cast<int16_t>(value),
               .b = static_cast<int16_t>(threshold),
               .c = static_cast<int16_t>(stuck ? 1 : 0)});
  if (stuck) addUnitFlags(s, u, unit_flag::kStuck | unit_flag::kHalted);
  afterStep(s, u, log);
}

int chargeModifier(const GameState& s, int cavalry, int target) {
  const int diff = s.unit(cavalry).vc - s.unit(target).vc;
  return s.sc().rules().charge_vc_modifier == ChargeModifier::kHalf ? diff / 2 : diff;
}

void declareCharge(GameState& s, int u, int dir, EventLog* log) {
  const CellId at = s.sc().neighbor(s.unit(u).cell, dir);
  const int target = s.unitAt(at);
  addUnitFlags(s, u, unit_flag::kCharged | unit_flag::kHalted);
  record(log, {.type = EventType::kCharge,
               .unit = static_cast<int8_t>(u),
               .other = static_cast<int8_t>(target),
               .from = s.unit(u).cell,
               .to = at});
  setPending(s,
             {ChanceKind::kChargeTest, static_cast<int8_t>(u), static_cast<int8_t>(target), 0, 0});
}

void resolveChargeTest(GameState& s, int value, EventLog* log) {
  const int cavalry = s.pending.unit;
  const int target = s.pending.target;
  setPending(s, {});
  const int modifier = chargeModifier(s, cavalry, target);
  // MV-CHG-5 step 3: fail if d9 + modifier exceeds the target's MO; MO 0 always fails (C-DEM-1).
  // The morale_model switch may decide the test otherwise (V-MOR-6).
  const MoraleTest test{target, TestOccasion::kCharge, cavalry, modifier};
  const MoraleOutcome outcome = moraleOutcome(s, test, value);
  const bool failed = outcome >= MoraleOutcome::kRetreat;
  record(log, {.type = EventType::kChargeTest,
               .unit = static_cast<int8_t>(target),
               .other = static_cast<int8_t>(cavalry),
               .a = static_cast<int16_t>(value),
               .b = static_cast<int16_t>(modifier),
               .c = static_cast<int16_t>(failed ? 1 : 0)});
  if (s.sc().rules().morale_model != MoraleModel::kMp) {
    record(log, {.type = EventType::kMoraleResult,
                 .unit = static_cast<int8_t>(target),
                 .other = static_cast<int8_t>(cavalry),
                 .a = static_cast<int16_t>(value),
                 .b = static_cast<int16_t>(moraleFactorShown(s, test)),
                 .c = static_cast<int16_t>(outcome)});
  }
  if (!failed) {
    changeMorale(s, cavalry, -s.sc().rules().charge_passed_mo_loss, log);                 // step 5
    applyMoraleOutcome(s, target, outcome, cavalry, s.unit(cavalry).cell, nullptr, log);  // halt
  } else if (isArtillery(s.typeOf(target))) {
    eliminateUnit(s, target, log);  // MV-CHG-3
  } else {
    applyMoraleOutcome(s, target, outcome, cavalry, s.unit(cavalry).cell, nullptr, log);  // step 4
  }
  // Step 6: the reaction fire the cavalry's last step triggered comes after the test.
  if (s.charge_window == cavalry) closeChargeWindow(s, cavalry, log);
}

}  // namespace morne::env
