#pragma once
// Rule switches: every gap-filling ([proposed]) decision of the rules specification that has a
// meaningful alternative is a named switch here, with the specification's choice as default
// (ENG-4). A scenario's "rules" block may set any of them; unknown names are an error.
//
// Each switch is an integer underneath (booleans are 0/1, choices are indexes into the choice
// list), described once in kRuleSwitchTable so that parsing, printing, the JSON form of a
// scenario and docs/scenario-format.md all come from one place.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace morne::env {

enum class GeneralMoves : uint8_t { kAsCavalry, kAsInfantry };
enum class HalfRounding : uint8_t { kDown, kUp };
enum class ChargeModifier : uint8_t { kFull, kHalf };
enum class RetreatDistance : uint8_t { kEuclidean, kHex };
enum class FinalTiebreak : uint8_t { kSmallerQ, kLargerQ };
enum class FortControl : uint8_t { kLastOccupant, kEnemyZoc };
enum class VictoriousUntil : uint8_t { kEndOfCombatPhase, kEndOfGameTurn };
enum class FireLossSplit : uint8_t { kCoinPerPoint, kSingleCoin };
enum class ReactionOrder : uint8_t { kAscendingId, kDescendingId };
enum class StreamSupports : uint8_t { kOffensive, kAll, kNone };
enum class SupportHex : uint8_t { kOwn, kDefender };
enum class VcModifierOrder : uint8_t { kDoubleHalveStream, kStreamHalveDouble };
enum class ZeroStrengthAttack : uint8_t { kOneToEight, kForbidden };
enum class AdvanceObjectives : uint8_t { kEitherSide, kOwnSide };
enum class GeneralAdvance : uint8_t { kAsMounted, kNever };
enum class DromedaryRanks : uint8_t { kInfantry, kMounted };
enum class RallySides : uint8_t { kPhasing, kBoth };
enum class RetreatFrom : uint8_t { kDefenderOldHex, kDefenderHex };
// Variant modules (docs/variants.md): how a morale test is decided, what a failed one does,
// whether winners pursue, and the seed 003 melee die modifiers.
enum class MoraleModel : uint8_t { kMp, kAncient2d6, kGradedD6 };
enum class FailedTest : uint8_t { kMp, kAncientRout, kGraded };
enum class Pursuit : uint8_t { kNone, kAncient };
enum class MeleeFactors : uint8_t { kNone, kSeed003 };
enum class AncientTests : uint8_t { kCrtAsterisk, kEveryFireAndCombat };
enum class FlankOutside : uint8_t { kEveryFront, kAnyFront };

// The values of all switches. Defaults are the specification's choices.
struct RuleSwitches {
  // --- movement (§5) ---
  GeneralMoves general_moves_as = GeneralMoves::kAsCavalry;
  int slope_up_cost = 1;
  int slope_down_cost = 0;
  bool free_road_step_ignores_hexside = true;
  int marsh_stuck_dromedary = 2;
  bool marsh_stuck_holds_next_turn = false;
  bool generals_exert_zoc = true;
  bool zoc_across_rivers_and_cliffs = false;
  bool minimum_move_one_hex = false;
  HalfRounding horse_artillery_fired_ma = HalfRounding::kDown;
  ChargeModifier charge_vc_modifier = ChargeModifier::kFull;
  int charge_passed_mo_loss = 1;
  bool charge_requires_move = true;
  // --- command (§9) ---
  bool independent_units_in_command = true;
  bool leaderless_corps_in_command = false;
  // --- retreat (§6.8), shared by charges and combat ---
  RetreatDistance retreat_distance = RetreatDistance::kEuclidean;
  FinalTiebreak retreat_final_tiebreak = FinalTiebreak::kSmallerQ;
  bool retreat_across_ford = true;
  bool retreat_zoc_loss_spills_to_vc = false;
  bool retreat_counts_as_moved = true;
  bool passing_hex_by_retreat_and_advance = true;
  FortControl fort_control = FortControl::kLastOccupant;
  // --- turn structure (§0, §3) ---
  bool first_turn_setup_only = false;
  VictoriousUntil victorious_until = VictoriousUntil::kEndOfCombatPhase;
  // --- bombardment (§4) ---
  FireLossSplit fire_loss_split = FireLossSplit::kCoinPerPoint;
  bool artillery_fires_when_adjacent = true;
  bool artillery_fires_when_demoralised = true;
  int los_obstacle_height = 1;
  ReactionOrder reaction_fire_order = ReactionOrder::kAscendingId;
  // --- combat (§6) ---
  bool artillery_and_generals_attack = true;
  bool artillery_and_generals_support = true;
  bool support_blocked_by_any_enemy = true;
  bool victorious_demoralised_supports = false;
  StreamSupports stream_divides_supports = StreamSupports::kOffensive;
  SupportHex support_doubling_hex = SupportHex::kOwn;
  bool fort_halves_cavalry_support = true;
  VcModifierOrder vc_modifier_order = VcModifierOrder::kDoubleHalveStream;
  ZeroStrengthAttack zero_strength_attack = ZeroStrengthAttack::kOneToEight;
  bool both_retreat_both_victorious = true;
  RetreatFrom attacker_retreat_from = RetreatFrom::kDefenderOldHex;
  bool advance_rank_counts_elevation = false;
  AdvanceObjectives advance_objective_hexes = AdvanceObjectives::kEitherSide;
  GeneralAdvance general_advances = GeneralAdvance::kAsMounted;
  DromedaryRanks dromedary_advance_ranks = DromedaryRanks::kInfantry;
  bool ford_allows_combat = false;
  // --- rally (§7) ---
  RallySides rally_sides = RallySides::kPhasing;
  bool rally_bridge_connects = true;
  // --- variant modules (docs/variants.md); the defaults are Morne Plaine ---
  MoraleModel morale_model = MoraleModel::kMp;
  int ancient_factor_offset = 2;
  bool ancient_factor_loses_mo = true;
  AncientTests ancient_tests = AncientTests::kCrtAsterisk;
  int graded_base_offset = -5;
  FailedTest failed_test = FailedTest::kMp;
  int graded_paces_per_hex = 55;
  Pursuit pursuit = Pursuit::kNone;
  bool light_infantry_pursues = false;
  bool defender_pursues = false;
  bool pursuers_follow_off_map = true;
  MeleeFactors melee_factors = MeleeFactors::kNone;
  int fatigue_cap = 3;
  FlankOutside flank_outside = FlankOutside::kEveryFront;

  // Whether any variant module is on (the state then tracks routs, pursuits and fatigue).
  bool anyVariant() const {
    return morale_model != MoraleModel::kMp || failed_test != FailedTest::kMp ||
           pursuit != Pursuit::kNone || melee_factors != MeleeFactors::kNone;
  }

  friend bool operator==(const RuleSwitches&, const RuleSwitches&) = default;
};

// Description of one switch.
struct RuleSwitchInfo {
  const char* name;      // key in the scenario's "rules" block
  const char* rule_ids;  // rule IDs of the specification it implements
  const char* phase;     // part of the game it changes: "movement", "combat", ...
  const char* help;      // one sentence: what the default does and what the alternative does
  enum class Kind : uint8_t { kBool, kInt, kChoice } kind;
  int min_value;                         // kInt only
  int max_value;                         // kInt only
  std::span<const char* const> choices;  // kChoice only; the enum's order
  int (*get)(const RuleSwitches&);
  void (*set)(RuleSwitches&, int);
};

// All switches in documentation order.
std::span<const RuleSwitchInfo> ruleSwitchTable();

// The switch named `name`, or nullptr.
const RuleSwitchInfo* findRuleSwitch(std::string_view name);

// Text form of a switch value: "true"/"false", the integer, or the choice name.
std::string ruleSwitchValueText(const RuleSwitchInfo& info, int value);

}  // namespace morne::env
