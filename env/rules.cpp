#include "env/rules.h"

#include <algorithm>
#include <cassert>

#include "env/combat.h"
#include "env/fire.h"
#include "env/morale_model.h"
#include "env/movement.h"
#include "env/occupy.h"
#include "env/rout.h"
#include "env/turn.h"

namespace morne::env {

namespace {

void generateSetupActions(const GameState& s, ActionList& out) {
  if (nextUnitToPlace(s) < 0) return;
  std::array<CellId, kMaxCells> cells;
  const auto& zone = s.sc().setupZone(s.side);
  size_t n = 0;
  for (CellId c : zone) {
    if (s.unitAt(c) < 0) cells[n++] = c;
  }
  std::sort(cells.begin(), cells.begin() + static_cast<std::ptrdiff_t>(n));
  for (size_t i = 0; i < n; ++i) out.push_back(Action::place(cells[i]));
}

void place(GameState& s, CellId c, EventLog* log) {
  const int u = nextUnitToPlace(s);
  clearUnitFlags(s, u, unit_flag::kAwaitingSetup);
  occupyHex(s, u, c, EntryCause::kPlacement, log);
  record(log, {.type = EventType::kPlaced, .unit = static_cast<int8_t>(u), .to = c});
}

}  // namespace

int nextUnitToPlace(const GameState& s) {
  if (s.phase != Phase::kSetup) return -1;
  for (int u = 0; u < s.num_units; ++u) {
    if (s.sideOf(u) == s.side && s.has(u, unit_flag::kAwaitingSetup)) return u;
  }
  return -1;
}

GameState newGame(const Scenario& sc, EventLog* log) {
  GameState s = emptyState(sc);
  for (int u = 0; u < sc.numUnits(); ++u) {
    const UnitInfo& info = sc.unit(u);
    UnitState& us = s.units[static_cast<size_t>(u)];
    us.cell = info.start;
    us.vc = static_cast<int8_t>(info.vc);
    us.mo = static_cast<int8_t>(info.mo);
    us.flags = info.start == kNoCell ? unit_flag::kAwaitingSetup : 0;
    if (info.start != kNoCell) s.unit_at[static_cast<size_t>(info.start)] = static_cast<int8_t>(u);
  }
  for (size_t i = 0; i < sc.trackedCells().size(); ++i) {
    s.owner[i] = static_cast<int8_t>(sc.trackedInitialOwner()[i]);
  }
  for (size_t f = 0; f < sc.fortCells().size(); ++f) {
    const int occupant = s.unitAt(sc.fortCells()[f]);  // M-FORT-1: occupied forts are held
    const int control = occupant >= 0 ? sc.unit(occupant).side : sc.fortInitialControl()[f];
    s.fort_control[f] = static_cast<int8_t>(control);
  }
  s.turn = 1;
  s.side = 0;
  s.phase = Phase::kSetup;
  s.hash = computeHash(s);
  startGame(s, log);
  return s;
}

void legalActions(const GameState& s, ActionList& out) {
  out.clear();
  if (s.isChanceNode()) return;
  switch (s.phase) {
    case Phase::kSetup:
      generateSetupActions(s, out);  // placing is compulsory: no "end" (S-2)
      return;
    case Phase::kBombardment:
      out.push_back(Action::end());
      generateFireActions(s, out);
      return;
    case Phase::kMovement:
      if (s.charge_window >= 0) {  // charge or hold before the guns fire (F-REACT-6)
        out.push_back(Action::hold());
        generateWindowCharges(s, out);
        return;
      }
      out.push_back(Action::end());
      generateMovementActions(s, out);
      return;
    case Phase::kCombat:
      out.push_back(Action::end());
      generateAttackActions(s, out);
      return;
    case Phase::kGameOver:
    case Phase::kRally:  // only dice are rolled there (V-ROUT-5)
      return;
  }
}

bool isLegal(const GameState& s, Action a) {
  ActionList legal;
  legalActions(s, legal);
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

void applyAction(GameState& s, Action a, EventLog* log) {
  assert(isLegal(s, a));
  switch (a.kind) {
    case ActionKind::kEnd:
      endPhase(s, log);
      return;
    case ActionKind::kHold:
      holdCharge(s, log);
      break;
    case ActionKind::kPlace:
      place(s, a.cell, log);
      break;
    case ActionKind::kMove:
      applyStep(s, s.unitAt(a.cell), a.arg, log);
      break;
    case ActionKind::kCharge:
      declareCharge(s, s.unitAt(a.cell), a.arg, log);
      break;
    case ActionKind::kAttack:
      declareAttack(s, s.unitAt(a.cell), attackTarget(s, a), log);
      break;
    case ActionKind::kFire:
      declareFire(s, s.unitAt(a.cell), fireTarget(s, a), log);
      break;
  }
  continueIfIdle(s, log);
}

void chanceOutcomes(const GameState& s, ChanceList& out) {
  out.clear();
  int faces = 0;
  switch (s.pending.kind) {
    case ChanceKind::kMarshTest:
      faces = 4;  // RNG-2
      break;
    case ChanceKind::kChargeTest:
    case ChanceKind::kMoraleTest:
    case ChanceKind::kMoraleCheck:
      moraleTestOutcomes(s.sc().rules(), out);  // RNG-3 d9, or the variant's dice (V-MOR-1)
      return;
    case ChanceKind::kFireDie:
      faces = 4;  // RNG-2
      break;
    case ChanceKind::kFireCoin:
      faces = 2;  // RNG-4: 1 = MO, 2 = VC
      break;
    case ChanceKind::kCombatDie:
    case ChanceKind::kFreeAttack:
      faces = 6;  // RNG-1
      break;
    case ChanceKind::kNone:
      return;
  }
  for (int v = 1; v <= faces; ++v) out.push_back({v, 1, faces});
}

void applyChance(GameState& s, int value, EventLog* log) {
  resolvePendingChance(s, value, log);
  continueIfIdle(s, log);
}

void resolvePendingChance(GameState& s, int value, EventLog* log) {
  switch (s.pending.kind) {
    case ChanceKind::kMarshTest:
      resolveMarshTest(s, value, log);
      break;
    case ChanceKind::kChargeTest:
      resolveChargeTest(s, value, log);
      break;
    case ChanceKind::kFireDie:
      resolveFireDie(s, value, log);
      break;
    case ChanceKind::kFireCoin:
      resolveFireCoin(s, value, log);
      break;
    case ChanceKind::kCombatDie:
      resolveCombatDie(s, value, log);
      break;
    case ChanceKind::kMoraleTest:
      resolveCombatMoraleTest(s, value, log);
      break;
    case ChanceKind::kMoraleCheck:
      resolveMoraleCheck(s, value, log);
      break;
    case ChanceKind::kFreeAttack:
      resolveFreeAttack(s, value, log);
      break;
    case ChanceKind::kNone:
      assert(false && "not a chance node");
      return;
  }
}

int sampleChance(const GameState& s, Rng& rng) {
  ChanceList outcomes;
  chanceOutcomes(s, outcomes);
  // All denominators are equal for dice; draw an integer in [0, den) and walk the numerators.
  const int den = outcomes[0].den;
  int x = static_cast<int>(rng.below(static_cast<uint32_t>(den)));
  for (const ChanceOutcome& o : outcomes) {
    assert(o.den == den);
    if (x < o.num) return o.value;
    x -= o.num;
  }
  return outcomes[outcomes.size() - 1].value;
}

void playRandomPly(GameState& s, Rng& rng, ActionList& scratch) {
  if (s.isChanceNode()) {
    applyChance(s, sampleChance(s, rng));
    return;
  }
  legalActions(s, scratch);
  applyAction(s, scratch[rng.below(static_cast<uint32_t>(scratch.size()))]);
}

}  // namespace morne::env
