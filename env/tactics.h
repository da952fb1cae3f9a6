#pragma once
// What an agent may ask the rules about an action before it takes it: the odds of an attack,
// the losses of a fire, the cost of a step, the odds of a marsh or charge test. The public part
// of the phases' internal headers (env/combat.h, env/fire.h, env/movement.h include it); the
// rule agent's heuristics (agents/heuristics.h) are built on these.

#include <array>
#include <cstdint>

#include "env/action.h"
#include "env/fixed_vector.h"
#include "env/game_state.h"

namespace morne::env {

// --- combat (§6) ---

// Terrain effects applied to one contributor's VC (C-TER-1..4).
namespace vc_effect {
inline constexpr uint8_t kDoubled = 1u << 0;        // infantry in woods, village or fort
inline constexpr uint8_t kHalved = 1u << 1;         // cavalry attacking out of a fort
inline constexpr uint8_t kStreamDivided = 1u << 2;  // across a stream: VC / 1.5
inline constexpr uint8_t kVictorious = 1u << 3;     // supports although in contact with others
}  // namespace vc_effect

// One unit's part in a combat: the attacker, the defender or a support.
struct CombatContributor {
  int8_t unit = -1;
  bool attacking = false;  // on the attacker's side
  bool principal = false;  // the attacker or the defender itself (else a support)
  int8_t base_vc = 0;
  int8_t vc = 0;        // after terrain effects
  uint8_t effects = 0;  // vc_effect bits
};

// Everything that decides a combat before the die is rolled.
struct CombatOdds {
  FixedVector<CombatContributor, 16> units;
  int attack = 0;   // A (C-RATIO-1)
  int defence = 0;  // D
  int column = 0;   // odds column -7 (1:8) .. 7 (8:1) (C-RATIO-2..4)
  // Die modifiers (C-DRM-*, C-TER-1).
  int hamlet = 0;
  int slope = 0;
  int marsh = 0;
  int dune = 0;
  int fort = 0;
  int morale = 0;
  int melee = 0;  // seed 003's factors when the melee_factors switch is on (V-MEL-*)
  int dieModifier() const { return hamlet + slope + marsh + dune + fort + morale + melee; }
};

// The odds of `attacker` attacking the adjacent `defender` now, supports included.
CombatOdds combatOdds(const GameState& s, int attacker, int defender);

// Whether `attacker` may attack `defender` now (C-GEN-1..4, C-RATIO-4 switch).
bool canAttack(const GameState& s, int attacker, int defender);

// Terrain rank of hex c for the advance after combat (C-ADV-3): village, woods, fort 2 on the
// infantry table (0 on the mounted one), hamlet 1, marsh and dunes -1, else 0.
int advanceTerrainRank(const Scenario& sc, CellId c, bool infantry_table);

// The unit an attack action targets, or -1.
int attackTarget(const GameState& s, Action a);

// --- morale (C-MOR-1, MV-CHG-5 and the variant models of docs/variants.md) ---

// Results of a morale test, from best to worst (seed 002's scale; Morne Plaine and seed 001
// use only kObey and one failure: kRetreat and kRout).
enum class MoraleOutcome : uint8_t { kObey, kUncontrolled, kHalt, kRetreat, kRout, kFlight };
inline constexpr int kNumMoraleOutcomes = 6;

// The exact probabilities of each result of a test of `unit` now, caused by `responsible`
// (or -1), with the charge modifier `modifier` (0 outside charges; `charge` picks the charge
// occasion), under the scenario's morale model.
struct MoraleOdds {
  std::array<double, kNumMoraleOutcomes> p{};
  double of(MoraleOutcome o) const { return p[static_cast<size_t>(o)]; }
  // Probability of a result that moves the unit: retreat, rout or flight.
  double failure() const {
    return of(MoraleOutcome::kRetreat) + of(MoraleOutcome::kRout) + of(MoraleOutcome::kFlight);
  }
};
MoraleOdds moraleTestOdds(const GameState& s, int unit, int responsible, int modifier, bool charge);

// --- fire (§4) ---

// Loss points of a fire with d4 result `die` (F-RES-1): floor((VT + M + d4) / 2), 0 if the sum
// is negative.
int fireLosses(const GameState& s, int gun, int target, bool reaction, int die);

// The unit a fire action targets, or -1 if the offset leaves the map or finds no unit.
int fireTarget(const GameState& s, Action a);

// --- movement (§5) ---

// Cost of a movement step of unit u in direction `dir`, or -1 if the step is not allowed.
// Sets *road_step when the step follows a road (MV-ROAD-1).
int stepCost(const GameState& s, int u, int dir, bool* road_step);

// The d4 result at or below which a unit is stuck in a marsh (MV-MARSH-1).
int marshStuckThreshold(const GameState& s, int u);

// Modifier of a charge test: the VC difference, full or halved (MV-CHG-5, switch).
int chargeModifier(const GameState& s, int cavalry, int target);

}  // namespace morne::env
