#include "env/occupy.h"

#include <algorithm>

namespace morne::env {

void occupyHex(GameState& s, int u, CellId to, EntryCause cause, EventLog* log) {
  const Scenario& sc = s.sc();
  setUnitCell(s, u, to);
  const int side = s.sideOf(u);

  const int tracked = sc.trackedIndex(to);
  const bool takes_hexes = cause == EntryCause::kMovement || cause == EntryCause::kPlacement ||
                           sc.rules().passing_hex_by_retreat_and_advance;
  if (tracked >= 0 && takes_hexes && !isGeneral(s.typeOf(u)) &&
      s.owner[static_cast<size_t>(tracked)] != side) {
    setOwner(s, tracked, side);
    record(log, {.type = EventType::kOwnerChange,
                 .unit = static_cast<int8_t>(u),
                 .to = to,
                 .a = static_cast<int16_t>(side)});
  }
  const int fort = sc.fortIndex(to);
  if (fort >= 0 && s.fort_control[static_cast<size_t>(fort)] != side) {
    setFortControl(s, fort, side);
    record(log, {.type = EventType::kFortControl,
                 .unit = static_cast<int8_t>(u),
                 .to = to,
                 .a = static_cast<int16_t>(side)});
  }
}

void eliminateUnit(GameState& s, int u, EventLog* log) {
  const CellId from = s.unit(u).cell;
  setUnitCell(s, u, kNoCell);
  setUnitMp(s, u, 0);
  setUnitFlags(s, u, unit_flag::kEliminated);
  record(log, {.type = EventType::kEliminated, .unit = static_cast<int8_t>(u), .from = from});
}

int changeMorale(GameState& s, int u, int delta, EventLog* log) {
  if (isGeneral(s.typeOf(u))) return 0;
  const int before = s.unit(u).mo;
  const int after = std::clamp(before + delta, 0, s.sc().unit(u).mo);
  if (after == before) return 0;
  setUnitMo(s, u, after);
  record(log, {.type = EventType::kMoraleChange,
               .unit = static_cast<int8_t>(u),
               .a = static_cast<int16_t>(after - before),
               .b = static_cast<int16_t>(after)});
  return after - before;
}

void loseVc(GameState& s, int u, int points, EventLog* log) {
  if (points <= 0) return;
  const int after = std::max(0, s.unit(u).vc - points);
  setUnitVc(s, u, after);
  record(log, {.type = EventType::kVcChange,
               .unit = static_cast<int8_t>(u),
               .a = static_cast<int16_t>(-points),
               .b = static_cast<int16_t>(after)});
  if (after == 0) eliminateUnit(s, u, log);
}

}  // namespace morne::env
