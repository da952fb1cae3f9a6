#include "env/morale_model.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace morne::env {

namespace {

using O = MoraleOutcome;

// Seed 002's result table (V-MOR-4): one row per score band, best band first, one column per
// quality (guard .. irregular).
struct GradedRow {
  int min_score;  // the band's lowest score
  std::array<O, kNumQualities> result;
};
constexpr O kO = O::kObey;
constexpr O kU = O::kUncontrolled;
constexpr O kH = O::kHalt;
constexpr O kR = O::kRetreat;
constexpr O kD = O::kRout;
constexpr O kF = O::kFlight;
constexpr std::array<GradedRow, 11> kGradedTable = {{
    {11, {kO, kO, kU, kU, kU, kU, kU}},
    {9, {kO, kO, kO, kU, kU, kU, kU}},
    {7, {kO, kO, kO, kO, kO, kO, kU}},
    {5, {kO, kO, kO, kO, kO, kO, kO}},
    {3, {kO, kO, kO, kO, kO, kH, kO}},  // militia halts, irregulars obey: as printed
    {1, {kO, kO, kO, kO, kH, kH, kR}},
    {0, {kO, kO, kO, kH, kR, kR, kD}},
    {-2, {kH, kH, kH, kR, kD, kD, kF}},
    {-4, {kR, kR, kR, kD, kD, kF, kF}},
    {-6, {kR, kD, kD, kF, kF, kF, kF}},
    {-1000, {kR, kD, kF, kF, kF, kF, kF}},
}};

// Seed 002's remaining-strength modifiers: rows 90 % .. 10 %, columns guard .. irregular.
constexpr std::array<std::array<int8_t, kNumQualities>, 9> kStrengthTable = {{
    {0, 0, 0, 0, -1, -1, -1},
    {0, 0, -1, -1, -2, -3, -3},
    {-1, -1, -1, -2, -3, -4, -5},
    {-1, -2, -2, -3, -4, -5, -6},
    {-2, -3, -4, -5, -6, -7, -7},
    {-2, -4, -5, -6, -7, -8, -9},
    {-3, -5, -6, -7, -8, -9, -10},
    {-3, -6, -7, -8, -9, -11, -11},
    {-4, -7, -9, -10, -11, -12, -13},
}};

constexpr std::array<std::string_view, kNumMoraleOutcomes> kOutcomeNames = {
    "obey", "uncontrolled", "halt", "retreat", "rout", "flight"};

// The unit's corps general, or -1 when its corps has none (independent units included).
int generalOf(const GameState& s, int u) {
  const int corps = s.sc().unit(u).corps;
  return corps < 0 ? -1 : s.sc().corps()[static_cast<size_t>(corps)].general;
}

// Units of `side` that count in the surroundings: on the map, not generals, not routed.
bool countsAround(const GameState& s, int v) {
  return v >= 0 && !isGeneral(s.typeOf(v)) && !s.routed(v);
}

// V-MOR-5 cover: light (coppice, orchard, palm grove, woods) +1, hard (hamlet) +2, building
// (village, fort) +3.
int coverFactor(Terrain t) {
  switch (t) {
    case Terrain::kCoppice:
    case Terrain::kOrchard:
    case Terrain::kPalmGrove:
    case Terrain::kWoods:
      return 1;
    case Terrain::kHamlet:
      return 2;
    case Terrain::kVillage:
    case Terrain::kFort:
      return 3;
    default:
      return 0;
  }
}

// V-MOR-5: seed 002's « Unité en abri léger ou bordant un ruisseau +1 »: a stream runs
// along one of the unit's hexsides.
bool bordersStream(const Scenario& sc, CellId c) {
  for (int d = 0; d < kNumDirections; ++d) {
    if (sc.side(c, d).water == Water::kStream) return true;
  }
  return false;
}

// V-MOR-5 surroundings: friends and enemies in contact, and enemies on the flanks and in the
// rear relative to the responsible enemy.
int surroundingsFactor(const GameState& s, const MoraleTest& t) {
  const Scenario& sc = s.sc();
  const CellId at = s.unit(t.unit).cell;
  const int side = s.sideOf(t.unit);
  int friends = 0;
  int enemies = 0;
  for (int d = 0; d < kNumDirections; ++d) {
    const Hexside& h = sc.side(at, d);
    if (h.neighbor == kNoCell || !h.contact) continue;
    const int v = s.unitAt(h.neighbor);
    if (!countsAround(s, v)) continue;
    (s.sideOf(v) == side ? friends : enemies) += 1;
  }
  int factor = friends > enemies ? 2 : (enemies > friends ? -2 : 0);
  if (t.responsible < 0 || !s.onMap(t.responsible)) return factor;
  const auto front = directionBetween(sc.hexOf(at), sc.hexOf(s.unit(t.responsible).cell));
  if (!front) return factor;
  auto enemyAt = [&](int dir) {
    const Hexside& h = sc.side(at, dir % kNumDirections);
    const int v = h.neighbor == kNoCell ? -1 : s.unitAt(h.neighbor);
    return v >= 0 && s.sideOf(v) != side && countsAround(s, v);
  };
  if (enemyAt(*front + 3)) factor -= 3;  // enemy in the rear
  if (enemyAt(*front + 2)) factor -= 2;  // enemy on a flank, per flank
  if (enemyAt(*front + 4)) factor -= 2;
  return factor;
}

}  // namespace

std::string_view moraleOutcomeName(MoraleOutcome o) {
  return kOutcomeNames[static_cast<size_t>(o)];
}

bool moraleTestIsCertain(const GameState& s, const MoraleTest& t) {
  if (s.sc().rules().morale_model != MoraleModel::kMp) return false;
  const int mo = s.unit(t.unit).mo;
  return t.occasion == TestOccasion::kCombat && (mo <= 0 || mo >= 9);
}

void moraleTestOutcomes(const RuleSwitches& rules, ChanceList& out) {
  out.clear();
  switch (rules.morale_model) {
    case MoraleModel::kMp:
      for (int v = 1; v <= 9; ++v) out.push_back({v, 1, 9});  // RNG-3
      return;
    case MoraleModel::kAncient2d6:
      for (int v = 2; v <= 12; ++v) out.push_back({v, 6 - std::abs(7 - v), 36});
      return;
    case MoraleModel::kGradedD6:
      for (int v = 1; v <= 6; ++v) out.push_back({v, 1, 6});
      return;
  }
}

int ancientFactor(const GameState& s, const MoraleTest& t) {
  const Scenario& sc = s.sc();
  const RuleSwitches& rules = sc.rules();
  const UnitInfo& info = sc.unit(t.unit);
  int factor = info.morale_factor > 0 ? info.morale_factor : info.mo + rules.ancient_factor_offset;
  if (rules.ancient_factor_loses_mo) factor -= info.mo - s.unit(t.unit).mo;
  const int general = generalOf(s, t.unit);
  if (general >= 0 && !s.onMap(general)) {
    factor -= 3;  // the leader is killed
  } else if (general >= 0) {
    const int d = sc.distance(s.unit(t.unit).cell, s.unit(general).cell);
    factor += d <= 1 ? 2 : (d <= 2 ? 1 : 0);  // in the stack (adjacent) / within 2 hexes
  }
  if (s.pursuing(t.unit)) factor -= 2;
  return factor;
}

int gradedScoreWithoutDie(const GameState& s, const MoraleTest& t) {
  const Scenario& sc = s.sc();
  const int u = t.unit;
  const UnitInfo& info = sc.unit(u);
  int score = s.unit(u).mo + sc.rules().graded_base_offset;  // base factor
  const CellId at = s.unit(u).cell;
  score += std::max(coverFactor(sc.terrain(at)), bordersStream(sc, at) ? 1 : 0);
  if (s.routed(u)) score -= 4;
  if (s.hasMorale(u, morale_bit::kRoutedBefore)) score -= 1;
  if (s.pursuing(u)) score -= 1;  // without formation
  score += surroundingsFactor(s, t);
  const int general = generalOf(s, u);
  if (general >= 0 && !s.onMap(general)) {
    score -= 1;  // general dead and not replaced
  } else if (general >= 0 && sc.distance(s.unit(u).cell, s.unit(general).cell) <= 1) {
    score += 1;  // general with the unit
  }
  if (t.occasion == TestOccasion::kCombat) score -= 1;  // just lost a melee
  if (s.has(u, unit_flag::kVictorious)) score += 1;     // won a melee this period
  score += remainingStrengthModifier(info.quality, s.unit(u).vc, info.vc);
  return score;
}

MoraleOutcome gradedResult(Quality quality, int score) {
  for (const GradedRow& row : kGradedTable) {
    if (score >= row.min_score) return row.result[static_cast<size_t>(quality)];
  }
  return kGradedTable.back().result[static_cast<size_t>(quality)];
}

int remainingStrengthModifier(Quality quality, int vc, int initial_vc) {
  if (initial_vc <= 0 || vc >= initial_vc) return 0;
  const int tenths = std::max(1, vc * 10 / initial_vc);  // rounded down to the 10 % row
  return kStrengthTable[static_cast<size_t>(9 - tenths)][static_cast<size_t>(quality)];
}

int moraleFactorShown(const GameState& s, const MoraleTest& t) {
  switch (s.sc().rules().morale_model) {
    case MoraleModel::kMp:
      return s.unit(t.unit).mo;
    case MoraleModel::kAncient2d6:
      return ancientFactor(s, t);
    case MoraleModel::kGradedD6:
      return gradedScoreWithoutDie(s, t);
  }
  return 0;
}

MoraleOdds moraleTestOdds(const GameState& s, int unit, int responsible, int modifier,
                          bool charge) {
  const MoraleTest t{unit, charge ? TestOccasion::kCharge : TestOccasion::kCombat, responsible,
                     modifier};
  ChanceList faces;
  moraleTestOutcomes(s.sc().rules(), faces);
  MoraleOdds odds;
  for (const ChanceOutcome& f : faces) {
    odds.p[static_cast<size_t>(moraleOutcome(s, t, f.value))] += f.num;
  }
  for (double& p : odds.p) p /= faces[0].den;
  return odds;
}

MoraleOutcome moraleOutcome(const GameState& s, const MoraleTest& t, int value) {
  const RuleSwitches& rules = s.sc().rules();
  switch (rules.morale_model) {
    case MoraleModel::kMp: {
      const int mo = s.unit(t.unit).mo;  // C-MOR-1, MV-CHG-5: MO 0 always fails
      return mo == 0 || value + t.modifier > mo ? O::kRetreat : O::kObey;
    }
    case MoraleModel::kAncient2d6:
      return value + t.modifier <= ancientFactor(s, t) ? O::kObey : O::kRout;
    case MoraleModel::kGradedD6:
      return gradedResult(s.sc().unit(t.unit).quality,
                          gradedScoreWithoutDie(s, t) + value - t.modifier);
  }
  return O::kObey;
}

}  // namespace morne::env
