#include "env/rally.h"

#include "env/control.h"
#include "env/occupy.h"

namespace morne::env {

namespace {

// Adjacent to the general and not separated from it by a watercourse or cliff (M-CONTACT-2).
bool besideGeneral(const GameState& s, int u, int general) {
  const Scenario& sc = s.sc();
  const auto dir = directionBetween(sc.hexOf(s.unit(u).cell), sc.hexOf(s.unit(general).cell));
  return dir && sc.side(s.unit(u).cell, *dir).rally_adjacent;
}

}  // namespace

int rallyGain(const GameState& s, int u) {
  const Scenario& sc = s.sc();
  const UnitInfo& info = sc.unit(u);
  if (!s.onMap(u) || isGeneral(info.type) || s.unit(u).mo >= info.mo) return 0;
  const int general = info.corps < 0 ? -1 : sc.corps()[static_cast<size_t>(info.corps)].general;
  if (general < 0 || !s.onMap(general)) return 0;  // independent units never rally; R-4
  const bool beside = besideGeneral(s, u, general);
  if (s.unit(u).mo == 0) return beside ? 1 : 0;
  const bool in_radius =
      sc.distance(s.unit(u).cell, s.unit(general).cell) <= sc.unit(general).radius;
  const bool still = !s.has(u, unit_flag::kMoved) && !enemyControlled(s, s.unit(u).cell, info.side);
  return (in_radius && still ? 1 : 0) + (beside ? 1 : 0);
}

void rallyPhase(GameState& s, EventLog* log) {
  const bool both = s.sc().rules().rally_sides == RallySides::kBoth;
  std::array<int8_t, kMaxUnits> gains{};
  for (int u = 0; u < s.num_units; ++u) {  // every gain from the same positions
    if (both || s.sideOf(u) == s.side)
      gains[static_cast<size_t>(u)] = static_cast<int8_t>(rallyGain(s, u));
  }
  for (int u = 0; u < s.num_units; ++u) {
    const int gain = gains[static_cast<size_t>(u)];
    if (gain == 0) continue;
    const int applied = changeMorale(s, u, gain, nullptr);  // capped at the initial MO
    record(log, {.type = EventType::kRally,
                 .unit = static_cast<int8_t>(u),
                 .a = static_cast<int16_t>(applied),
                 .b = static_cast<int16_t>(s.unit(u).mo)});
  }
}

}  // namespace morne::env
