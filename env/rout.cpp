#include "env/rout.h"

#include <algorithm>
#include <array>

#include "env/combat.h"
#include "env/fire.h"
#include "env/occupy.h"
#include "env/retreat.h"

namespace morne::env {

namespace {

// Hexes between a hex and its side's home edge (V-ROUT-3); -1 beyond the edge.
int edgeDistance(const Scenario& sc, Hex h, int side) {
  int col = 0;
  int row = 0;
  axialToOffset(h, sc.layout(), col, row);
  switch (sc.homeEdge(side)) {
    case MapEdge::kNorth:
      return row;
    case MapEdge::kSouth:
      return sc.height() - 1 - row;
    case MapEdge::kWest:
      return col;
    case MapEdge::kEast:
      return sc.width() - 1 - col;
  }
  return 0;
}

// V-ROUT-3 classes of what stands in a hex the router may enter, in order of preference;
// kBlocked: enemy units in order.
enum class Occupant : uint8_t {
  kEmpty,
  kFriendRouted,
  kFriendOther,    // friendly units that are not line infantry: they test
  kFriendLine,     // friendly line infantry (the seed's phalanxes): they test
  kEnemyDisorder,  // enemy routers or pursuers: no test
  kBlocked,
};

Occupant occupantClass(const GameState& s, int u, CellId c) {
  const int v = s.unitAt(c);
  if (v < 0) return Occupant::kEmpty;
  if (s.sideOf(v) != s.sideOf(u)) {
    return s.outOfControl(v) ? Occupant::kEnemyDisorder : Occupant::kBlocked;
  }
  if (s.routed(v)) return Occupant::kFriendRouted;
  return s.typeOf(v) == UnitType::kInfantry ? Occupant::kFriendLine : Occupant::kFriendOther;
}

// Whether units of class `o` test when a router passes through them (V-ROUT-4).
bool testsWhenPassed(Occupant o) {
  return o == Occupant::kFriendOther || o == Occupant::kFriendLine;
}

// One candidate step of a rout; smaller keys are better.
struct RoutStep {
  int dir = -1;
  CellId to = kNoCell;  // kNoCell: off the map by the home edge
  std::array<int, 6> key{};
};

// The best next step from `at` (V-ROUT-3), or dir -1 when the router cannot move.
RoutStep bestStep(const GameState& s, int u, CellId at, CellId responsible_cell,
                  const RoutPath& path) {
  const Scenario& sc = s.sc();
  const int side = s.sideOf(u);
  const Hex here = sc.hexOf(at);
  const int here_edge = edgeDistance(sc, here, side);
  RoutStep best;
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(at, d);
    const Hex next = here + kHexDirections[static_cast<size_t>(d)];
    const int edge = edgeDistance(sc, next, side);
    if (edge > here_edge) continue;  // never away from its own edge
    RoutStep step;
    step.dir = d;
    if (h.neighbor == kNoCell) {
      if (edge >= 0) continue;  // off the map, but not by its own edge
      step.key = {};
    } else {
      if (!h.retreatable || sc.terrain(h.neighbor) == Terrain::kDune) continue;
      if (std::find(path.cells.begin(), path.cells.end(), h.neighbor) != path.cells.end()) continue;
      const Occupant o = occupantClass(s, u, h.neighbor);
      if (o == Occupant::kBlocked) continue;
      step.to = h.neighbor;
      const int away =
          responsible_cell == kNoCell ? 0 : -hexDistance(next, sc.hexOf(responsible_cell));
      const bool smaller_q = sc.rules().retreat_final_tiebreak == FinalTiebreak::kSmallerQ;
      // Then C-RET-4's last criteria: not across a stream, blue south / orange north, q.
      step.key = {edge < here_edge ? 0 : 1,     static_cast<int>(o),         away, h.stream ? 1 : 0,
                  side == 1 ? next.r : -next.r, smaller_q ? next.q : -next.q};
    }
    if (best.dir < 0 || step.key < best.key) best = step;
  }
  return best;
}

// Whether u is in contact with a unit for which `counts(v)` holds.
template <typename Counts>
bool inContactWith(const GameState& s, int u, Counts counts) {
  const Scenario& sc = s.sc();
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(s.unit(u).cell, d);
    if (h.neighbor == kNoCell || !h.contact) continue;
    const int v = s.unitAt(h.neighbor);
    if (v >= 0 && counts(v)) return true;
  }
  return false;
}

// Whether u is in contact with an enemy unit for which `counts(v)` holds.
template <typename Counts>
bool inContactWithEnemy(const GameState& s, int u, Counts counts) {
  return inContactWith(s, u, [&](int v) { return s.sideOf(v) != s.sideOf(u) && counts(v); });
}

// V-ROUT-5: whether u is in contact with an enemy unit that keeps it from rallying: one in
// order or pursuing (not routed), generals excepted.
bool inContactWithEnemyInOrder(const GameState& s, int u) {
  return inContactWithEnemy(s, u, [&](int v) { return !s.routed(v) && !isGeneral(s.typeOf(v)); });
}

// Seed 002's rally occasions (V-ROUT-5, graded): « une unité amie en formation (autre que
// tirailleurs) »: a friendly unit in order other than light infantry, artillery and generals;
// « rejointe par un général »: a friendly general. Whether u is in contact with either.
bool inContactWithFormedFriendOrGeneral(const GameState& s, int u) {
  return inContactWith(s, u, [&](int v) {
    const UnitType t = s.typeOf(v);
    return s.sideOf(v) == s.sideOf(u) && !s.outOfControl(v) && t != UnitType::kLightInfantry &&
           !isArtillery(t);
  });
}

// V-PUR-5: whether u is in contact with a routed enemy, which keeps a pursuer from stopping.
bool inContactWithRoutedEnemy(const GameState& s, int u) {
  return inContactWithEnemy(s, u, [&](int v) { return s.routed(v); });
}

// Seed 002's rout and flight distances in paces by arm: infantry (artillery's gunners run on
// foot), heavy cavalry, light cavalry (dromedaries ride off like it) (V-ROUT-6).
int gradedPaces(const GameState& s, int u, MoraleOutcome o) {
  const bool flight = o == MoraleOutcome::kFlight;
  const UnitType type = s.typeOf(u);
  if (type == UnitType::kCavalry && s.sc().unit(u).heavy_cavalry) return flight ? 250 : 190;
  if (type == UnitType::kCavalry || type == UnitType::kDromedary) return flight ? 300 : 220;
  return flight ? 160 : 110;
}

// How far a rout runs under the failed_test module: the full movement allowance (ancient) or
// seed 002's distance in hexes at `graded_paces_per_hex`, rounded to the nearest (graded).
void routDistance(const GameState& s, int u, MoraleOutcome o, int& budget, bool& hexes) {
  const RuleSwitches& rules = s.sc().rules();
  hexes = rules.failed_test == FailedTest::kGraded;
  if (!hexes) {
    budget = std::max(1, s.sc().unit(u).ma);
  } else {
    budget = gradedRunHexes(gradedPaces(s, u, o), rules.graded_paces_per_hex);
  }
}

// Runs unit u along `path` (V-ROUT-3, V-ROUT-4): it enters each empty hex in turn, passes
// through occupied ones and marks the friends it passes for a test. `end` is the kRout code.
void runPath(GameState& s, int u, int responsible, const RoutPath& path, int end, EventLog* log) {
  const CellId from = s.unit(u).cell;
  // Seed 002: a router that passes a formed friend may rally at the end of the player-turn.
  const bool graded = s.sc().rules().failed_test == FailedTest::kGraded;
  bool saw_friend = graded && inContactWithFormedFriendOrGeneral(s, u);
  for (CellId c : path.cells) {
    const int v = s.unitAt(c);
    if (v < 0) {
      occupyHex(s, u, c, EntryCause::kRetreat, log);
      saw_friend = saw_friend || (graded && inContactWithFormedFriendOrGeneral(s, u));
    } else if (testsWhenPassed(occupantClass(s, u, c))) {
      addMoraleBits(s, v, morale_bit::kMustTest);
    }
  }
  if (saw_friend) addMoraleBits(s, u, morale_bit::kSawFormedFriend);
  if (s.sc().rules().retreat_counts_as_moved) addUnitFlags(s, u, unit_flag::kMoved);
  MoraleStatus m = s.moraleOf(u);
  m.bits = static_cast<uint16_t>(m.bits | morale_bit::kRouted | morale_bit::kRoutedBefore |
                                 morale_bit::kFellBack);
  m.bits = static_cast<uint16_t>(m.bits & ~(morale_bit::kPursuing | morale_bit::kHaltHeld));
  m.pursued = 0;
  setMoraleStatus(s, u, m);
  const bool gone = path.leaves_map || end != 0;
  record(log, {.type = EventType::kRout,
               .unit = static_cast<int8_t>(u),
               .other = static_cast<int8_t>(responsible),
               .from = from,
               .to = gone ? kNoCell : s.unit(u).cell,
               .a = static_cast<int16_t>(path.cells.size() + (path.leaves_map ? 1 : 0)),
               .b = static_cast<int16_t>(path.leaves_map ? 1 : end)});
  if (gone && s.onMap(u)) eliminateUnit(s, u, log);
}

// Starts test `occasion` of unit u as the pending morale check.
void startCheck(GameState& s, int u, TestOccasion occasion) {
  setPending(
      s, {ChanceKind::kMoraleCheck, static_cast<int8_t>(u), -1, 0, static_cast<uint8_t>(occasion)});
}

// Flees again in the rally step (V-ROUT-5) and brings its pursuers along (V-PUR-3).
void fleeAgain(GameState& s, int u, EventLog* log) {
  int budget = 0;
  bool hexes = false;
  routDistance(s, u, MoraleOutcome::kRout, budget, hexes);
  const CellId from = s.unit(u).cell;
  const RoutPath path = routPath(s, u, budget, hexes, kNoCell);
  runPath(s, u, -1, path, 0, log);
  for (int p = 0; p < s.num_units; ++p) {
    if (s.onMap(p) && s.pursuing(p) && s.moraleOf(p).pursued == u + 1) {
      pursue(s, p, u, from, path, log);
    }
  }
}

// Whether the routed u may test to rally in this rally step (V-ROUT-5): seed 001 (ancient):
// « Toute unité qui n'est pas au contact d'une unité ennemie en ordre ou en train de poursuivre »;
// seed 002 (graded): « La déroute ne peut être arrêtée que par un test de moral effectué : »
// after passing a formed friend, or when a general joins it.
bool mayTestToRally(const GameState& s, int u) {
  if (s.sc().rules().failed_test != FailedTest::kGraded) return !inContactWithEnemyInOrder(s, u);
  return s.hasMorale(u, morale_bit::kSawFormedFriend) || inContactWithFormedFriendOrGeneral(s, u);
}

// Whether unit u belongs to a side that rallies in this rally step (R-1 switch).
bool ralliesNow(const GameState& s, int u) {
  return s.sc().rules().rally_sides == RallySides::kBoth || s.sideOf(u) == s.side;
}

}  // namespace

int gradedRunHexes(int paces, int paces_per_hex) {
  return std::max(1, (2 * paces + paces_per_hex) / (2 * paces_per_hex));
}

RoutPath routPath(const GameState& s, int u, int budget, bool count_hexes,
                  CellId responsible_cell) {
  const Scenario& sc = s.sc();
  RoutPath path;
  CellId at = s.unit(u).cell;
  int left = budget;
  for (;;) {
    const bool must_go_on = !path.cells.empty() && s.unitAt(path.cells[path.cells.size() - 1]) >= 0;
    if (left <= 0 && !must_go_on) break;
    if (path.cells.size() == path.cells.capacity()) break;
    const RoutStep step = bestStep(s, u, at, responsible_cell, path);
    if (step.dir < 0) break;
    if (step.to == kNoCell) {
      path.leaves_map = true;
      return path;
    }
    const Hexside& h = sc.side(at, step.dir);
    const int cost = count_hexes ? 1 : sc.enterCost(sc.moveClass(u), step.to) + h.step_extra;
    if (cost > left && !path.cells.empty() && !must_go_on) break;
    path.cells.push_back(step.to);
    left -= cost;
    at = step.to;
  }
  // A rout may not end on an occupied hex: it ends on the last empty one it reached.
  size_t end = path.cells.size();
  while (end > 0 && s.unitAt(path.cells[end - 1]) >= 0) --end;
  path.cells.truncate(end);
  return path;
}

bool applyMoraleOutcome(GameState& s, int u, MoraleOutcome o, int responsible,
                        CellId responsible_cell, RoutPath* path, EventLog* log) {
  if (path) path->cells.clear();
  if (o <= MoraleOutcome::kUncontrolled || !s.onMap(u)) return false;
  if (o == MoraleOutcome::kHalt) {
    addMoraleBits(s, u, morale_bit::kHaltHeld);
    record(log, {.type = EventType::kHalt, .unit = static_cast<int8_t>(u)});
    return false;
  }
  const FailedTest module = s.sc().rules().failed_test;
  if (module == FailedTest::kMp ||
      (module == FailedTest::kGraded && o == MoraleOutcome::kRetreat)) {
    retreatUnit(s, u, responsible, responsible_cell, log);  // moves it or eliminates it
    if (s.onMap(u) && s.sc().rules().anyVariant()) addMoraleBits(s, u, morale_bit::kFellBack);
    return true;
  }
  int budget = 0;
  bool hexes = false;
  routDistance(s, u, o, budget, hexes);
  RoutPath run = routPath(s, u, budget, hexes, responsible_cell);
  int end = 0;
  if (run.cells.empty() && !run.leaves_map) {
    // Nowhere to run: seed 001 leaves the router in place, seed 002 takes it prisoner.
    end = module == FailedTest::kGraded ? 3 : 0;
  } else if (o == MoraleOutcome::kFlight && module == FailedTest::kGraded) {
    end = 2;  // fliers leave the field and never come back
  }
  runPath(s, u, responsible, run, end, log);
  if (path) *path = run;
  return true;
}

bool pursues(const GameState& s, int winner, int router) {
  if (s.sc().rules().pursuit != Pursuit::kAncient) return false;
  if (!s.onMap(winner) || s.outOfControl(winner) || !s.routed(router)) return false;
  // Seed 001: « les mouvements de poursuite du joueur en phase ».
  if (s.sideOf(winner) != s.side && !s.sc().rules().defender_pursues) return false;
  const UnitType t = s.typeOf(winner);
  return t == UnitType::kCavalry ||
         (t == UnitType::kLightInfantry && s.sc().rules().light_infantry_pursues);
}

void pursue(GameState& s, int pursuer, int router, CellId router_from, const RoutPath& path,
            EventLog* log) {
  const Scenario& sc = s.sc();
  const CellId from = s.unit(pursuer).cell;
  auto follow = [&](CellId c) {
    // Never through a unit (it is stopped where the router passed one), never off the trail.
    if (s.unitAt(c) >= 0 || sc.distance(s.unit(pursuer).cell, c) != 1) return false;
    occupyHex(s, pursuer, c, EntryCause::kAdvance, log);
    return true;
  };
  bool on_the_trail = follow(router_from);
  for (size_t i = 0; on_the_trail && i < path.cells.size(); ++i)
    on_the_trail = follow(path.cells[i]);
  // Seed 001: « Les unités poursuivantes peuvent sortir de la carte » (then lost, like routers).
  const bool leaves = on_the_trail && path.leaves_map && sc.rules().pursuers_follow_off_map;
  addUnitFlags(s, pursuer, unit_flag::kMoved);
  MoraleStatus m = s.moraleOf(pursuer);
  m.bits = static_cast<uint16_t>(m.bits | morale_bit::kPursuing);
  m.pursued = static_cast<uint8_t>(router + 1);
  setMoraleStatus(s, pursuer, m);
  record(log, {.type = EventType::kPursuit,
               .unit = static_cast<int8_t>(pursuer),
               .other = static_cast<int8_t>(router),
               .from = from,
               .to = leaves ? kNoCell : s.unit(pursuer).cell});
  if (leaves) {
    eliminateUnit(s, pursuer, log);
    return;
  }
  if (!s.onMap(router) || s.isChanceNode()) return;  // one free attack at a time
  const auto dir = directionBetween(sc.hexOf(s.unit(pursuer).cell), sc.hexOf(s.unit(router).cell));
  if (dir && sc.side(s.unit(pursuer).cell, *dir).contact) {
    setPending(s, {ChanceKind::kFreeAttack, static_cast<int8_t>(pursuer),
                   static_cast<int8_t>(router), 0, 0});
  }
}

void resolveFreeAttack(GameState& s, int value, EventLog* log) {
  const int pursuer = s.pending.unit;
  const int router = s.pending.target;
  setPending(s, {});
  // The blow in the back: the CRT at the two units' VCs, no supports, no terrain; the router
  // takes the defender's loss, the pursuer nothing, and nobody tests.
  const int column = oddsColumn(s.unit(pursuer).vc, s.unit(router).vc);
  const CrtCell cell =
      s.sc().crt()[static_cast<size_t>(std::clamp(value, 0, 7))][static_cast<size_t>(column + 7)];
  record(log, {.type = EventType::kFreeAttack,
               .unit = static_cast<int8_t>(pursuer),
               .other = static_cast<int8_t>(router),
               .a = static_cast<int16_t>(value),
               .b = static_cast<int16_t>(column),
               .c = static_cast<int16_t>(cell.defender_loss)});
  loseVc(s, router, cell.defender_loss, log);
}

void resolveMoraleCheck(GameState& s, int value, EventLog* log) {
  const int u = s.pending.unit;
  const int other = s.pending.target;  // the attack's target, or the gun that fired
  const auto occasion = static_cast<TestOccasion>(s.pending.flags);
  setPending(s, {});
  const MoraleTest test{u, occasion, other, 0};
  const MoraleOutcome o = moraleOutcome(s, test, value);
  record(log, {.type = EventType::kMoraleResult,
               .unit = static_cast<int8_t>(u),
               .a = static_cast<int16_t>(value),
               .b = static_cast<int16_t>(moraleFactorShown(s, test)),
               .c = static_cast<int16_t>(o)});
  const bool passed = o <= MoraleOutcome::kHalt;
  switch (occasion) {
    case TestOccasion::kPassedThrough:
      // A failure is a rout in place (V-ROUT-4).
      if (!passed) {
        addMoraleBits(s, u, morale_bit::kRouted | morale_bit::kRoutedBefore);
        record(log, {.type = EventType::kRout,
                     .unit = static_cast<int8_t>(u),
                     .from = s.unit(u).cell,
                     .to = s.unit(u).cell});
      }
      return;
    case TestOccasion::kRally:
      if (passed) {
        clearMoraleBits(s, u, morale_bit::kRouted);
        record(log, {.type = EventType::kBackInOrder, .unit = static_cast<int8_t>(u)});
      } else {
        fleeAgain(s, u, log);
      }
      return;
    case TestOccasion::kStopPursuit:
      if (passed) {
        MoraleStatus m = s.moraleOf(u);
        m.bits = static_cast<uint16_t>(m.bits & ~morale_bit::kPursuing);
        m.pursued = 0;
        setMoraleStatus(s, u, m);
        record(log, {.type = EventType::kBackInOrder, .unit = static_cast<int8_t>(u), .a = 1});
      }
      return;
    case TestOccasion::kPoorOdds:
      // A failure forbids the attack (seed 001: « Un échec interdit l'attaque »).
      if (passed) {
        startCombat(s, u, other, combatOdds(s, u, other));
      } else {
        record(log, {.type = EventType::kAttackRefused,
                     .unit = static_cast<int8_t>(u),
                     .other = static_cast<int8_t>(other)});
      }
      return;
    case TestOccasion::kAfterFire:
      if (!passed) {
        const CellId gun_cell = s.onMap(other) ? s.unit(other).cell : kNoCell;
        applyMoraleOutcome(s, u, o, other, gun_cell, nullptr, log);
      }
      continueReactionFire(s, log);
      return;
    case TestOccasion::kCombat:
    case TestOccasion::kCharge:
      return;
  }
}

bool startQueuedTest(GameState& s) {
  for (int u = 0; u < s.num_units; ++u) {
    if (!s.hasMorale(u, morale_bit::kMustTest)) continue;
    clearMoraleBits(s, u, morale_bit::kMustTest);
    if (!s.onMap(u) || s.routed(u) || isGeneral(s.typeOf(u))) continue;
    startCheck(s, u, TestOccasion::kPassedThrough);
    return true;
  }
  return false;
}

bool variantRallyStep(GameState& s, EventLog* log) {
  if (startQueuedTest(s)) return true;
  // Routers rally or flee again, lowest index first (V-ROUT-5).
  for (int u = 0; u < s.num_units; ++u) {
    if (!s.onMap(u) || !s.routed(u) || !ralliesNow(s, u)) continue;
    if (s.hasMorale(u, morale_bit::kRallyTested)) continue;
    addMoraleBits(s, u, morale_bit::kRallyTested);
    if (mayTestToRally(s, u)) {
      startCheck(s, u, TestOccasion::kRally);
    } else {
      fleeAgain(s, u, log);
    }
    if (s.isChanceNode() || startQueuedTest(s)) return true;
  }
  // Pursuers out of contact with every routed enemy may try to stop (V-PUR-5).
  for (int u = 0; u < s.num_units; ++u) {
    if (!s.onMap(u) || !s.pursuing(u) || !ralliesNow(s, u)) continue;
    if (s.hasMorale(u, morale_bit::kRallyTested)) continue;
    addMoraleBits(s, u, morale_bit::kRallyTested);
    if (inContactWithRoutedEnemy(s, u)) continue;
    startCheck(s, u, TestOccasion::kStopPursuit);
    return true;
  }
  // Fatigue: a unit that neither fought nor moved this player-turn rests one point (V-MEL-3);
  // the player-turn's marks (fought, passed a formed friend) end here.
  for (int u = 0; u < s.num_units; ++u) {
    if (!ralliesNow(s, u)) continue;
    MoraleStatus m = s.moraleOf(u);
    const bool rests = !(m.bits & morale_bit::kFought) && !s.has(u, unit_flag::kMoved);
    if (rests && m.fatigue > 0) --m.fatigue;
    m.bits = static_cast<uint16_t>(m.bits & ~(morale_bit::kFought | morale_bit::kSawFormedFriend));
    if (!(m == s.moraleOf(u))) setMoraleStatus(s, u, m);
  }
  return false;
}

}  // namespace morne::env
