#include "env/victory.h"

#include <algorithm>

namespace morne::env {

namespace {

// Side holding cell c for victory purposes: the side of a non-general unit on it (V-HEX-1,
// V-HEX-3), or of its owner for passing hexes (V-HEX-2).
int holder(const GameState& s, CellId c, bool passing) {
  if (passing) {
    const int t = s.sc().trackedIndex(c);
    return t >= 0 ? s.owner[static_cast<size_t>(t)] : kNoSide;
  }
  const int u = s.unitAt(c);
  return u >= 0 && !isGeneral(s.typeOf(u)) ? s.sideOf(u) : kNoSide;
}

// V-ZONE-1: whether `side` scores zone z. majority: more than half of its hexes; all: every
// hex; any: at least one hex and more than the other side.
bool scoresZone(const Zone& z, const std::array<int, kNumSides>& held, int side) {
  const int mine = held[static_cast<size_t>(side)];
  const int theirs = held[static_cast<size_t>(otherSide(side))];
  const int size = static_cast<int>(z.cells.size());
  switch (z.criterion) {
    case ZoneCriterion::kMajority:
      return 2 * mine > size;
    case ZoneCriterion::kAll:
      return mine == size;
    case ZoneCriterion::kAny:
      return mine > 0 && mine > theirs;
  }
  return false;
}

}  // namespace

int objectiveHolder(const GameState& s, const Objective& o) { return holder(s, o.cell, o.passing); }

std::array<bool, kNumSides> zoneScorers(const GameState& s, const Zone& z) {
  std::array<int, kNumSides> held = {};
  for (CellId c : z.cells) {
    const int side = holder(s, c, z.passing);
    if (side != kNoSide) ++held[static_cast<size_t>(side)];
  }
  std::array<bool, kNumSides> scores = {};
  for (int side = 0; side < kNumSides; ++side) {
    scores[static_cast<size_t>(side)] = scoresZone(z, held, side);
  }
  return scores;
}

GameResult gameResult(const GameState& s) {
  const Scenario& sc = s.sc();
  GameResult r;
  for (const Objective& o : sc.objectives()) {
    const int side = objectiveHolder(s, o);
    if (side != kNoSide) r.vp[static_cast<size_t>(side)] += o.vp[static_cast<size_t>(side)];
  }
  for (const Zone& z : sc.zones()) {
    const std::array<bool, kNumSides> scores = zoneScorers(s, z);
    for (size_t side = 0; side < kNumSides; ++side) {
      if (scores[side]) r.vp[side] += z.vp[side];
    }
  }
  if (s.handicap_half > 0) r.handicap_half[0] = s.handicap_half;
  if (s.handicap_half < 0) r.handicap_half[1] = -s.handicap_half;
  const int delta = r.marginHalf();  // V-LEVEL-1
  r.winner = delta > 0 ? 0 : (delta < 0 ? 1 : kNoSide);
  r.level = victoryLevel(delta);
  return r;
}

int victoryLevel(int margin_half) {
  const int whole = (margin_half < 0 ? -margin_half : margin_half) / 2;
  return margin_half == 0 ? 0 : std::clamp(whole, 1, 4);
}

std::string halfVpText(int half_vp) {
  const int whole = half_vp / 2;  // rounds towards zero
  std::string text = std::to_string(whole);
  if (half_vp % 2 == 0) return text;
  return (half_vp < 0 && whole == 0 ? "-" : "") + text + ".5";
}

const char* victoryLevelName(int level) {
  static constexpr const char* kNames[] = {"draw", "minor victory", "tactical victory",
                                           "major victory", "total victory"};
  return kNames[std::clamp(level, 0, 4)];
}

}  // namespace morne::env
