#include "env/retreat.h"

#include <array>

#include "env/control.h"
#include "env/occupy.h"

namespace morne::env {

namespace {

// Whether a fort hex is closed to retreats of `side` (C-RET-2, M-FORT-1, switch fort_control).
bool enemyFort(const GameState& s, CellId c, int side) {
  const int fort = s.sc().fortIndex(c);
  if (fort < 0) return false;
  if (s.sc().rules().fort_control == FortControl::kEnemyZoc) return enemyControlled(s, c, side);
  return s.fort_control[static_cast<size_t>(fort)] == otherSide(side);
}

// Priority key of a candidate hex (C-RET-4); larger compares better, criterion by criterion.
using RetreatKey = std::array<int, 7>;

RetreatKey retreatKey(const GameState& s, int u, const Hexside& h, CellId responsible_cell) {
  const Scenario& sc = s.sc();
  const RuleSwitches& rules = sc.rules();
  const bool infantry = isInfantry(s.typeOf(u));
  const Terrain t = sc.terrain(h.neighbor);
  const Hex to = sc.hexOf(h.neighbor);
  const Hex away = to - sc.hexOf(responsible_cell);
  const int distance = rules.retreat_distance == RetreatDistance::kEuclidean
                           ? hexMetric(away, away)
                           : hexDistance(to, sc.hexOf(responsible_cell));
  return {
      infantry && t == Terrain::kVillage ? 1 : 0,               // 1. village (infantry)
      infantry && t == Terrain::kWoods ? 1 : 0,                 // 2. woods (infantry)
      hexDistance(to, sc.hexOf(responsible_cell)) > 1 ? 1 : 0,  // 3. not adjacent to it
      distance,                                                 // 4. farthest from it
      h.stream ? 0 : 1,                                         // 5. not across a stream
      s.sideOf(u) == 1 ? -to.r : to.r,                          // 6. orange north, blue south
      rules.retreat_final_tiebreak == FinalTiebreak::kSmallerQ ? -to.q : to.q,  // 7.
  };
}

}  // namespace

CellId chooseRetreat(const GameState& s, int u, CellId responsible_cell) {
  const Scenario& sc = s.sc();
  const CellId from = s.unit(u).cell;
  const int side = s.sideOf(u);
  CellId best = kNoCell;
  RetreatKey best_key{};
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(from, d);
    if (h.neighbor == kNoCell || !h.retreatable || s.unitAt(h.neighbor) >= 0) continue;
    if (enemyFort(s, h.neighbor, side)) continue;
    const RetreatKey key = retreatKey(s, u, h, responsible_cell);
    if (best == kNoCell || key > best_key) {
      best = h.neighbor;
      best_key = key;
    }
  }
  return best;
}

CellId retreatUnit(GameState& s, int u, int responsible, CellId responsible_cell, EventLog* log) {
  const RuleSwitches& rules = s.sc().rules();
  const CellId from = s.unit(u).cell;
  const CellId to = chooseRetreat(s, u, responsible_cell);
  if (to == kNoCell) {  // C-RET-3
    record(log, {.type = EventType::kNoRetreat,
                 .unit = static_cast<int8_t>(u),
                 .other = static_cast<int8_t>(responsible),
                 .from = from});
    eliminateUnit(s, u, log);
    return kNoCell;
  }
  const int zoc = countEnemyZoc(s, to, s.sideOf(u), responsible);
  occupyHex(s, u, to, EntryCause::kRetreat, log);
  if (rules.retreat_counts_as_moved) addUnitFlags(s, u, unit_flag::kMoved);
  record(log, {.type = EventType::kRetreat,
               .unit = static_cast<int8_t>(u),
               .other = static_cast<int8_t>(responsible),
               .from = from,
               .to = to,
               .a = static_cast<int16_t>(zoc)});
  if (zoc > 0) {  // C-RET-7
    const int taken = -changeMorale(s, u, -zoc, log);
    if (rules.retreat_zoc_loss_spills_to_vc && !isGeneral(s.typeOf(u))) {
      loseVc(s, u, zoc - taken, log);
    }
  }
  return s.onMap(u) ? to : kNoCell;
}

}  // namespace morne::env
