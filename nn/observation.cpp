#include "nn/observation.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "env/check.h"
#include "env/hex.h"
#include "env/rules.h"

namespace morne::nn {

namespace {

using env::CellId;
using env::GameState;

// Channels, in order. The first kStaticPlanes depend on the scenario alone.
constexpr std::string_view kPlaneNames[] = {
    // static: the map
    "on_map",
    "terrain_clear",
    "terrain_rough",
    "terrain_coppice",
    "terrain_orchard",
    "terrain_woods",
    "terrain_village",
    "terrain_hamlet",
    "terrain_marsh",
    "terrain_palm_grove",
    "terrain_dune",
    "terrain_fort",
    "level",
    "movable_e",
    "movable_ne",
    "movable_nw",
    "movable_w",
    "movable_sw",
    "movable_se",
    "contact_e",
    "contact_ne",
    "contact_nw",
    "contact_w",
    "contact_sw",
    "contact_se",
    "divided_e",
    "divided_ne",
    "divided_nw",
    "divided_w",
    "divided_sw",
    "divided_se",
    "road_e",
    "road_ne",
    "road_nw",
    "road_w",
    "road_sw",
    "road_se",
    // objectives and control
    "objective_vp_mine",
    "objective_vp_theirs",
    "passing_hex",
    "owned_mine",
    "owned_theirs",
    "fort_mine",
    "fort_theirs",
    "setup_zone_mine",
    "setup_zone_theirs",
    // units by type
    "mine_infantry",
    "mine_light_infantry",
    "mine_cavalry",
    "mine_foot_artillery",
    "mine_horse_artillery",
    "mine_general",
    "mine_dromedary",
    "theirs_infantry",
    "theirs_light_infantry",
    "theirs_cavalry",
    "theirs_foot_artillery",
    "theirs_horse_artillery",
    "theirs_general",
    "theirs_dromedary",
    // unit values and status
    "mine_vc",
    "theirs_vc",
    "mine_mo",
    "theirs_mo",
    "mine_mp",
    "mine_in_command",
    "theirs_in_command",
    "mine_demoralised",
    "theirs_demoralised",
    "mine_moved",
    "mine_halted",
    "mine_fired",
    "mine_attacked",
    "mine_charged",
    "mine_stuck",
    "mine_victorious",
    "theirs_victorious",
    "theirs_defended",
    // the event in progress
    "pending_unit",
    "pending_target",
    "charge_window",
    "combat_attacker",
    "combat_defender",
    "reacting_to",
    // variant modules (docs/variants.md); zero under the Morne Plaine rules
    "mine_routed",
    "theirs_routed",
    "mine_pursuing",
    "theirs_pursuing",
    "mine_fatigue",
    "theirs_fatigue",
    "mine_halt_held",
    "theirs_halt_held",
    "mine_morale_factor",
    "theirs_morale_factor",
    "mine_quality",
    "theirs_quality",
};
constexpr int kNumPlanes = static_cast<int>(std::size(kPlaneNames));
static_assert(kPlaneNames[kOnMapPlane] == "on_map");
constexpr int kStaticPlanes = 37;

constexpr std::string_view kGlobalNames[] = {
    "phase_setup",
    "phase_bombardment",
    "phase_movement",
    "phase_combat",
    "phase_game_over",
    "phase_rally",
    "mover_is_blue",
    "turn",
    "turns_left",
    "vp_mine",
    "vp_theirs",
    "chance_pending",
    "reaction_in_progress",
    "charge_window_open",
    "combat_in_progress",
    // the variant modules in force (docs/variants.md)
    "morale_ancient_2d6",
    "morale_graded_d6",
    "failed_test_ancient_rout",
    "failed_test_graded",
    "pursuit_ancient",
    "melee_seed003",
    // the victory-point handicap (docs/scenario-format.md, "balance")
    "handicap_mine",
};
constexpr int kNumGlobals = static_cast<int>(std::size(kGlobalNames));

// First channel of each group (the names above, in the same order).
enum Plane : int {
  kOnMap = 0,
  kTerrain = 1,
  kLevel = 12,
  kMovable = 13,
  kContact = 19,
  kDivided = 25,
  kRoad = 31,
  kObjectiveMine = 37,
  kObjectiveTheirs,
  kPassing,
  kOwnedMine,
  kOwnedTheirs,
  kFortMine,
  kFortTheirs,
  kSetupMine,
  kSetupTheirs,
  kTypeMine = 46,
  kTypeTheirs = 53,
  kVcMine = 60,
  kVcTheirs,
  kMoMine,
  kMoTheirs,
  kMpMine,
  kCommandMine,
  kCommandTheirs,
  kDemoralisedMine,
  kDemoralisedTheirs,
  kMovedMine,
  kHaltedMine,
  kFiredMine,
  kAttackedMine,
  kChargedMine,
  kStuckMine,
  kVictoriousMine,
  kVictoriousTheirs,
  kDefendedTheirs,
  kPendingUnit,
  kPendingTarget,
  kChargeWindow,
  kCombatAttacker,
  kCombatDefender,
  kReactingTo,
  kRoutedMine,
  kRoutedTheirs,
  kPursuingMine,
  kPursuingTheirs,
  kFatigueMine,
  kFatigueTheirs,
  kHaltHeldMine,
  kHaltHeldTheirs,
  kMoraleFactorMine,
  kMoraleFactorTheirs,
  kQualityMine,
  kQualityTheirs,
};
static_assert(kQualityTheirs == kNumPlanes - 1, "plane enum and names disagree");

// Index of each global after the phases (the names above, in the same order).
enum Global : int {
  kMoverIsBlue = env::kNumPhases,
  kTurn,
  kTurnsLeft,
  kVpMine,
  kVpTheirs,
  kChancePending,
  kReactionInProgress,
  kChargeWindowOpen,
  kCombatInProgress,
  kMoraleAncient,
  kMoraleGraded,
  kFailedAncient,
  kFailedGraded,
  kPursuitAncient,
  kMeleeSeed003,
  kHandicapMine,
};
static_assert(kHandicapMine == kNumGlobals - 1, "global enum and names disagree");

// The morale factor a unit starts with under the ancient 2d6 model (V-MOR-2), 0 otherwise.
int baseMoraleFactor(const env::Scenario& sc, int u) {
  if (sc.rules().morale_model != env::MoraleModel::kAncient2d6) return 0;
  const env::UnitInfo& info = sc.unit(u);
  return info.morale_factor > 0 ? info.morale_factor : info.mo + sc.rules().ancient_factor_offset;
}
static_assert(kObjectiveMine == kStaticPlanes, "static planes come first");

// value / scale, clamped to [-1, 1].
float ratio(int value, float scale) {
  return std::clamp(static_cast<float>(value) / scale, -1.0f, 1.0f);
}

}  // namespace

std::span<const std::string_view> ObservationEncoder::planeNames() { return kPlaneNames; }
std::span<const std::string_view> ObservationEncoder::globalNames() { return kGlobalNames; }

ObservationEncoder::ObservationEncoder(const env::Scenario& sc)
    : sc_(&sc),
      shape_{kNumPlanes, sc.height(), sc.width(), kNumGlobals},
      grid_of_cell_(static_cast<size_t>(sc.numCells())),
      static_planes_(static_cast<size_t>(kStaticPlanes * sc.height() * sc.width()), 0.0f) {
  const int area = sc.height() * sc.width();
  auto at = [&](int plane, int grid) -> float& {
    return static_planes_[static_cast<size_t>(plane * area + grid)];
  };
  for (CellId c = 0; c < sc.numCells(); ++c) {
    int col = 0, row = 0;
    env::axialToOffset(sc.hexOf(c), sc.layout(), col, row);
    const int g = row * sc.width() + col;
    grid_of_cell_[static_cast<size_t>(c)] = g;
    at(kOnMap, g) = 1;
    at(kTerrain + static_cast<int>(sc.terrain(c)), g) = 1;
    at(kLevel, g) = ratio(sc.level(c), 3);
    for (int d = 0; d < env::kNumDirections; ++d) {
      const env::Hexside& h = sc.side(c, d);
      if (h.neighbor == env::kNoCell) continue;
      at(kMovable + d, g) = h.movable;
      at(kContact + d, g) = h.contact;
      at(kDivided + d, g) = h.divides;
      at(kRoad + d, g) = h.road;
    }
  }
}

void ObservationEncoder::encode(const GameState& s, std::span<float> planes,
                                std::span<float> globals) const {
  MORNE_CHECK(static_cast<int>(planes.size()) == shape_.planeSize(),
              "observation planes of another size than the encoder's shape");
  MORNE_CHECK(static_cast<int>(globals.size()) == shape_.globals,
              "observation globals of another size than the encoder's shape");
  const env::Scenario& sc = *sc_;
  const int area = shape_.height * shape_.width;
  std::memcpy(planes.data(), static_planes_.data(), static_planes_.size() * sizeof(float));
  std::fill(planes.begin() + static_cast<std::ptrdiff_t>(static_planes_.size()), planes.end(),
            0.0f);
  auto set = [&](int plane, CellId c, float v) {
    planes[static_cast<size_t>(plane * area + gridIndex(c))] = v;
  };
  const int me = s.side;
  const int them = env::otherSide(me);

  // Objectives, zones and control.
  for (const env::Objective& o : sc.objectives()) {
    set(kObjectiveMine, o.cell, ratio(o.vp[static_cast<size_t>(me)], 5));
    set(kObjectiveTheirs, o.cell, ratio(o.vp[static_cast<size_t>(them)], 5));
    if (o.passing) set(kPassing, o.cell, 1);
  }
  for (const env::Zone& z : sc.zones()) {
    const float n = 5.0f * static_cast<float>(std::max<size_t>(1, z.cells.size()));
    for (CellId c : z.cells) {
      set(kObjectiveMine, c, ratio(z.vp[static_cast<size_t>(me)], n));
      set(kObjectiveTheirs, c, ratio(z.vp[static_cast<size_t>(them)], n));
      if (z.passing) set(kPassing, c, 1);
    }
  }
  for (size_t t = 0; t < sc.trackedCells().size(); ++t) {
    const int owner = s.owner[t];
    if (owner == me) set(kOwnedMine, sc.trackedCells()[t], 1);
    if (owner == them) set(kOwnedTheirs, sc.trackedCells()[t], 1);
  }
  for (size_t f = 0; f < sc.fortCells().size(); ++f) {
    const int control = s.fort_control[f];
    if (control == me) set(kFortMine, sc.fortCells()[f], 1);
    if (control == them) set(kFortTheirs, sc.fortCells()[f], 1);
  }
  if (s.phase == env::Phase::kSetup) {
    for (CellId c : sc.setupZone(me)) set(kSetupMine, c, 1);
    for (CellId c : sc.setupZone(them)) set(kSetupTheirs, c, 1);
  }

  // Units.
  for (int u = 0; u < s.num_units; ++u) {
    if (!s.onMap(u)) continue;
    const env::UnitState& us = s.unit(u);
    const CellId c = us.cell;
    const bool mine = s.sideOf(u) == me;
    set((mine ? kTypeMine : kTypeTheirs) + static_cast<int>(s.typeOf(u)), c, 1);
    set(mine ? kVcMine : kVcTheirs, c, ratio(us.vc, 8));
    set(mine ? kMoMine : kMoTheirs, c, ratio(us.mo, 9));
    if (s.has(u, env::unit_flag::kInCommand)) set(mine ? kCommandMine : kCommandTheirs, c, 1);
    if (s.demoralised(u)) set(mine ? kDemoralisedMine : kDemoralisedTheirs, c, 1);
    if (s.has(u, env::unit_flag::kVictorious))
      set(mine ? kVictoriousMine : kVictoriousTheirs, c, 1);
    if (mine) {
      set(kMpMine, c, ratio(std::max<int>(0, us.mp), 8));
      if (s.has(u, env::unit_flag::kMoved)) set(kMovedMine, c, 1);
      if (s.has(u, env::unit_flag::kHalted)) set(kHaltedMine, c, 1);
      if (s.has(u, env::unit_flag::kFired)) set(kFiredMine, c, 1);
      if (s.has(u, env::unit_flag::kAttacked)) set(kAttackedMine, c, 1);
      if (s.has(u, env::unit_flag::kCharged)) set(kChargedMine, c, 1);
      if (s.has(u, env::unit_flag::kStuck)) set(kStuckMine, c, 1);
    } else if (s.has(u, env::unit_flag::kDefended)) {
      set(kDefendedTheirs, c, 1);
    }
    const env::MoraleStatus& m = s.moraleOf(u);
    if (s.routed(u)) set(mine ? kRoutedMine : kRoutedTheirs, c, 1);
    if (s.pursuing(u)) set(mine ? kPursuingMine : kPursuingTheirs, c, 1);
    set(mine ? kFatigueMine : kFatigueTheirs, c, ratio(m.fatigue, 7));
    if (s.hasMorale(u, env::morale_bit::kHaltHeld))
      set(mine ? kHaltHeldMine : kHaltHeldTheirs, c, 1);
    set(mine ? kMoraleFactorMine : kMoraleFactorTheirs, c, ratio(baseMoraleFactor(sc, u), 12));
    if (sc.rules().morale_model == env::MoraleModel::kGradedD6) {
      const int best = env::kNumQualities - 1 - static_cast<int>(sc.unit(u).quality);
      set(mine ? kQualityMine : kQualityTheirs, c, ratio(best, env::kNumQualities - 1));
    }
  }

  // The event in progress.
  auto mark = [&](int plane, int u) {
    if (u >= 0 && s.onMap(u)) set(plane, s.unit(u).cell, 1);
  };
  if (s.isChanceNode()) {
    mark(kPendingUnit, s.pending.unit);
    mark(kPendingTarget, s.pending.target);
  }
  mark(kChargeWindow, s.charge_window);
  if (s.combat.active()) {
    mark(kCombatAttacker, s.combat.attacker);
    mark(kCombatDefender, s.combat.defender);
  }
  mark(kReactingTo, s.reacting_to);

  // Globals.
  std::fill(globals.begin(), globals.end(), 0.0f);
  globals[static_cast<size_t>(s.phase)] = 1;
  const env::GameResult r = env::gameResult(s);
  const float turns = static_cast<float>(std::max(1, sc.turns()));
  auto global = [&](Global g, float v) { globals[static_cast<size_t>(g)] = v; };
  auto flag = [](bool b) { return b ? 1.0f : 0.0f; };
  global(kMoverIsBlue, flag(me == 0));
  global(kTurn, ratio(s.turn, turns));
  global(kTurnsLeft, ratio(sc.turns() - s.turn + 1, turns));
  global(kVpMine, ratio(r.vp[static_cast<size_t>(me)], 10));
  global(kVpTheirs, ratio(r.vp[static_cast<size_t>(them)], 10));
  global(kChancePending, flag(s.isChanceNode()));
  global(kReactionInProgress, flag(s.reacting_to >= 0));
  global(kChargeWindowOpen, flag(s.charge_window >= 0));
  global(kCombatInProgress, flag(s.combat.active()));
  const env::RuleSwitches& rules = sc.rules();
  global(kMoraleAncient, flag(rules.morale_model == env::MoraleModel::kAncient2d6));
  global(kMoraleGraded, flag(rules.morale_model == env::MoraleModel::kGradedD6));
  global(kFailedAncient, flag(rules.failed_test == env::FailedTest::kAncientRout));
  global(kFailedGraded, flag(rules.failed_test == env::FailedTest::kGraded));
  global(kPursuitAncient, flag(rules.pursuit == env::Pursuit::kAncient));
  global(kMeleeSeed003, flag(rules.melee_factors == env::MeleeFactors::kSeed003));
  // The state's own scenario's handicap: self-play varies it per game (training/selfplay.h).
  global(kHandicapMine, ratio(r.handicap_half[static_cast<size_t>(me)] -
                                  r.handicap_half[static_cast<size_t>(them)],
                              20));
}

}  // namespace morne::nn
