#include "env/rule_switches.h"

#include <array>

namespace morne::env {

namespace {

using Kind = RuleSwitchInfo::Kind;

#define MORNE_FIELD(field)                                         \
  [](const RuleSwitches& r) { return static_cast<int>(r.field); }, \
      [](RuleSwitches& r, int v) { r.field = static_cast<decltype(RuleSwitches::field)>(v); }

constexpr std::array<const char*, 2> kGeneralMoves = {"cavalry", "infantry"};
constexpr std::array<const char*, 2> kHalfRounding = {"half_down", "half_up"};
constexpr std::array<const char*, 2> kChargeModifier = {"full", "half"};
constexpr std::array<const char*, 2> kRetreatDistance = {"euclidean", "hex"};
constexpr std::array<const char*, 2> kFinalTiebreak = {"smaller_q", "larger_q"};
constexpr std::array<const char*, 2> kFortControl = {"last_occupant", "enemy_zoc"};
constexpr std::array<const char*, 2> kVictoriousUntil = {"end_of_combat_phase", "end_of_game_turn"};
constexpr std::array<const char*, 2> kFireLossSplit = {"coin_per_point", "single_coin"};
constexpr std::array<const char*, 2> kReactionOrder = {"ascending_id", "descending_id"};
constexpr std::array<const char*, 3> kStreamSupports = {"offensive", "all", "none"};
constexpr std::array<const char*, 2> kSupportHex = {"own", "defender"};
constexpr std::array<const char*, 2> kVcOrder = {"double_halve_stream", "stream_halve_double"};
constexpr std::array<const char*, 2> kZeroStrength = {"one_to_eight", "forbidden"};
constexpr std::array<const char*, 2> kAdvanceObjectives = {"either_side", "own_side"};
constexpr std::array<const char*, 2> kGeneralAdvance = {"as_mounted", "never"};
constexpr std::array<const char*, 2> kDromedaryRanks = {"infantry", "mounted"};
constexpr std::array<const char*, 2> kRallySides = {"phasing", "both"};
constexpr std::array<const char*, 2> kRetreatFrom = {"defender_old_hex", "defender_hex"};
constexpr std::array<const char*, 3> kMoraleModel = {"mp", "ancient_2d6", "graded_d6"};
constexpr std::array<const char*, 3> kFailedTest = {"mp", "ancient_rout", "graded"};
constexpr std::array<const char*, 2> kPursuit = {"none", "ancient"};
constexpr std::array<const char*, 2> kMeleeFactors = {"none", "seed003"};
constexpr std::array<const char*, 2> kAncientTests = {"crt_asterisk", "every_fire_and_combat"};
constexpr std::array<const char*, 2> kFlankOutside = {"every_front", "any_front"};

constexpr std::span<const char* const> kNoChoices{};

const std::array kTable = {
    // --- movement ---
    RuleSwitchInfo{"general_moves_as", "MV-COST-1, D-3", "movement",
                   "Column of the movement cost table used by generals: cavalry (latest French "
                   "table) or infantry (2006 English rules). Marsh odds stay the cavalry's.",
                   Kind::kChoice, 0, 0, kGeneralMoves, MORNE_FIELD(general_moves_as)},
    RuleSwitchInfo{"slope_up_cost", "MV-COST-3, Q-MV-2", "movement",
                   "Extra movement points to cross one contour line uphill.", Kind::kInt, 0, 3,
                   kNoChoices, MORNE_FIELD(slope_up_cost)},
    RuleSwitchInfo{"slope_down_cost", "MV-COST-3, Q-MV-2", "movement",
                   "Extra movement points to cross one contour line downhill.", Kind::kInt, 0, 3,
                   kNoChoices, MORNE_FIELD(slope_down_cost)},
    RuleSwitchInfo{"free_road_step_ignores_hexside", "MV-ROAD-4, Q-MV-4", "movement",
                   "A free road step also ignores stream and slope costs on its hexside; false: "
                   "the free step still pays them.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(free_road_step_ignores_hexside)},
    RuleSwitchInfo{"marsh_stuck_dromedary", "MV-MARSH-1, Q-MV-3", "movement",
                   "A dromedary unit entering marsh is stuck on a d4 result at or below this.",
                   Kind::kInt, 0, 4, kNoChoices, MORNE_FIELD(marsh_stuck_dromedary)},
    RuleSwitchInfo{"marsh_stuck_holds_next_turn", "MV-MARSH-1, Q-MV-3", "movement",
                   "false: being stuck only ends the current move. true: a stuck unit also "
                   "cannot move in its side's next movement phase.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(marsh_stuck_holds_next_turn)},
    RuleSwitchInfo{"generals_exert_zoc", "MV-ZOC-1, Q-MV-5", "movement",
                   "Generals exert a zone of control like other units.", Kind::kBool, 0, 1,
                   kNoChoices, MORNE_FIELD(generals_exert_zoc)},
    RuleSwitchInfo{"zoc_across_rivers_and_cliffs", "MV-ZOC-1, Q-MV-5", "movement",
                   "false: a zone of control extends only to hexes in contact (not across an "
                   "unbridged river or a cliff). true: to all adjacent hexes.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(zoc_across_rivers_and_cliffs)},
    RuleSwitchInfo{"minimum_move_one_hex", "MV-GEN-2", "movement",
                   "true: a unit that has not moved yet may always step one hex, whatever the "
                   "cost. false (default): a step needs enough movement points.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(minimum_move_one_hex)},
    RuleSwitchInfo{"horse_artillery_fired_ma", "F-GEN-6", "movement",
                   "Movement allowance of horse artillery in command after it fired: half, "
                   "rounded down or up.",
                   Kind::kChoice, 0, 0, kHalfRounding, MORNE_FIELD(horse_artillery_fired_ma)},
    RuleSwitchInfo{"charge_vc_modifier", "MV-CHG-2, MV-CHG-5, Q-MV-6", "movement",
                   "Modifier of the charge morale test: the full VC difference between charger "
                   "and target, or half of it (truncated).",
                   Kind::kChoice, 0, 0, kChargeModifier, MORNE_FIELD(charge_vc_modifier)},
    RuleSwitchInfo{"charge_passed_mo_loss", "MV-CHG-5, Q-MV-6", "movement",
                   "MO points the charging cavalry loses when the target passes its test.",
                   Kind::kInt, 0, 3, kNoChoices, MORNE_FIELD(charge_passed_mo_loss)},
    RuleSwitchInfo{"charge_requires_move", "MV-CHG-5, Q-MV-6", "movement",
                   "A cavalry unit must have moved at least one hex this phase to charge.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(charge_requires_move)},
    // --- command ---
    RuleSwitchInfo{"independent_units_in_command", "CMD-4", "command",
                   "Units without a general count as in command (no halved movement).", Kind::kBool,
                   0, 1, kNoChoices, MORNE_FIELD(independent_units_in_command)},
    RuleSwitchInfo{"leaderless_corps_in_command", "CMD-4", "command",
                   "false: units of a corps whose general was eliminated are out of command. "
                   "true: they count as in command.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(leaderless_corps_in_command)},
    // --- retreat ---
    RuleSwitchInfo{"retreat_distance", "C-RET-4, Q-C-4", "retreat",
                   "Distance of retreat criterion 4 (away from the responsible unit): straight "
                   "line between hex centres, or hex distance.",
                   Kind::kChoice, 0, 0, kRetreatDistance, MORNE_FIELD(retreat_distance)},
    RuleSwitchInfo{"retreat_final_tiebreak", "C-RET-4, Q-C-4", "retreat",
                   "Last retreat tie-break: smaller or larger axial q.", Kind::kChoice, 0, 0,
                   kFinalTiebreak, MORNE_FIELD(retreat_final_tiebreak)},
    RuleSwitchInfo{"retreat_across_ford", "C-RET-2, M-SIDE-3", "retreat",
                   "A retreat may cross a river or major river at a ford.", Kind::kBool, 0, 1,
                   kNoChoices, MORNE_FIELD(retreat_across_ford)},
    RuleSwitchInfo{"retreat_zoc_loss_spills_to_vc", "C-RET-7", "retreat",
                   "false: MO lost by retreating into enemy zones of control stops at 0. true: "
                   "points beyond 0 are taken from VC.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(retreat_zoc_loss_spills_to_vc)},
    RuleSwitchInfo{"retreat_counts_as_moved", "C-RET-6, R-3", "retreat",
                   "A retreat counts as moving for the rally phase.", Kind::kBool, 0, 1, kNoChoices,
                   MORNE_FIELD(retreat_counts_as_moved)},
    RuleSwitchInfo{"passing_hex_by_retreat_and_advance", "V-HEX-2, C-RET-6, C-ADV-6, Q-V-1",
                   "victory",
                   "Retreats and advances after combat take passing objective hexes, like "
                   "movement does.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(passing_hex_by_retreat_and_advance)},
    RuleSwitchInfo{"fort_control", "M-FORT-1, C-RET-2, Q-C-9", "retreat",
                   "Meaning of an enemy-controlled fort (closed to retreats): one last occupied "
                   "by the enemy, or a fort hex in an enemy zone of control.",
                   Kind::kChoice, 0, 0, kFortControl, MORNE_FIELD(fort_control)},
    // --- turn structure ---
    RuleSwitchInfo{"first_turn_setup_only", "S-5, Q-S-1", "turn",
                   "Game turn 1 is used only for set-up: no bombardment, movement, combat or "
                   "rally in it.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(first_turn_setup_only)},
    RuleSwitchInfo{"victorious_until", "C-VIC-1, G-TURN-4, Q-C-8", "combat",
                   "How long a unit stays victorious: to the end of the combat phase, or to "
                   "the end of the game turn.",
                   Kind::kChoice, 0, 0, kVictoriousUntil, MORNE_FIELD(victorious_until)},
    // --- bombardment ---
    RuleSwitchInfo{"fire_loss_split", "RNG-4, F-LOSS-1, Q-F-1", "bombardment",
                   "How fire losses are split between MO and VC: one coin per loss point, or "
                   "one coin for all of them.",
                   Kind::kChoice, 0, 0, kFireLossSplit, MORNE_FIELD(fire_loss_split)},
    RuleSwitchInfo{"artillery_fires_when_adjacent", "F-GEN-7, Q-F-2", "bombardment",
                   "Artillery adjacent to an enemy unit may bombard.", Kind::kBool, 0, 1,
                   kNoChoices, MORNE_FIELD(artillery_fires_when_adjacent)},
    RuleSwitchInfo{"artillery_fires_when_demoralised", "F-GEN-7", "bombardment",
                   "Demoralised artillery may bombard.", Kind::kBool, 0, 1, kNoChoices,
                   MORNE_FIELD(artillery_fires_when_demoralised)},
    RuleSwitchInfo{"los_obstacle_height", "F-LOS-7, Q-F-3", "bombardment",
                   "Levels an obstacle hex adds to its elevation in the line-of-sight height "
                   "test.",
                   Kind::kInt, 0, 3, kNoChoices, MORNE_FIELD(los_obstacle_height)},
    RuleSwitchInfo{"reaction_fire_order", "F-REACT-7", "bombardment",
                   "Order in which several artillery units triggered by one step fire.",
                   Kind::kChoice, 0, 0, kReactionOrder, MORNE_FIELD(reaction_fire_order)},
    // --- combat ---
    RuleSwitchInfo{"artillery_and_generals_attack", "C-GEN-4, D-9, Q-C-3", "combat",
                   "Artillery and generals may declare attacks.", Kind::kBool, 0, 1, kNoChoices,
                   MORNE_FIELD(artillery_and_generals_attack)},
    RuleSwitchInfo{"artillery_and_generals_support", "C-SUP-7, D-9", "combat",
                   "Artillery and generals give automatic supports.", Kind::kBool, 0, 1, kNoChoices,
                   MORNE_FIELD(artillery_and_generals_support)},
    RuleSwitchInfo{"support_blocked_by_any_enemy", "C-SUP-3", "combat",
                   "true: contact with any second enemy unit (demoralised units and generals "
                   "included) prevents a support. false: only non-demoralised, non-general ones.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(support_blocked_by_any_enemy)},
    RuleSwitchInfo{"victorious_demoralised_supports", "C-SUP-5", "combat",
                   "A demoralised victorious unit still supports.", Kind::kBool, 0, 1, kNoChoices,
                   MORNE_FIELD(victorious_demoralised_supports)},
    RuleSwitchInfo{"stream_divides_supports", "C-TER-2, Q-C-2", "combat",
                   "Which supports separated from the opposing combatant by a stream have "
                   "their VC divided by 1.5: offensive ones, all, or none.",
                   Kind::kChoice, 0, 0, kStreamSupports, MORNE_FIELD(stream_divides_supports)},
    RuleSwitchInfo{"support_doubling_hex", "C-TER-2, Q-C-2", "combat",
                   "Hex whose woods/village/fort doubles an infantry defensive support: its "
                   "own, or the defender's.",
                   Kind::kChoice, 0, 0, kSupportHex, MORNE_FIELD(support_doubling_hex)},
    RuleSwitchInfo{"fort_halves_cavalry_support", "C-TER-2", "combat",
                   "A cavalry offensive support standing in a fort has its VC halved.", Kind::kBool,
                   0, 1, kNoChoices, MORNE_FIELD(fort_halves_cavalry_support)},
    RuleSwitchInfo{"vc_modifier_order", "C-TER-4", "combat",
                   "Order of the VC modifications of one unit, each rounded down.", Kind::kChoice,
                   0, 0, kVcOrder, MORNE_FIELD(vc_modifier_order)},
    RuleSwitchInfo{"zero_strength_attack", "C-RATIO-4", "combat",
                   "An attack whose strength is 0 after modifications is resolved at 1:8, or "
                   "cannot be declared.",
                   Kind::kChoice, 0, 0, kZeroStrength, MORNE_FIELD(zero_strength_attack)},
    RuleSwitchInfo{"both_retreat_both_victorious", "C-VIC-4, Q-C-7", "combat",
                   "When both combatants retreat both are victorious (neither advances); "
                   "false: neither is victorious.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(both_retreat_both_victorious)},
    RuleSwitchInfo{"attacker_retreat_from", "C-RES-1, C-RET-4", "combat",
                   "When both combatants fail their tests the defender retreats first; the "
                   "attacker's retreat is then measured from the hex the defender left, or from "
                   "the hex it retreated to.",
                   Kind::kChoice, 0, 0, kRetreatFrom, MORNE_FIELD(attacker_retreat_from)},
    RuleSwitchInfo{"advance_rank_counts_elevation", "C-ADV-3, Q-C-5", "combat",
                   "A higher hex adds one to its terrain rank for the advance test.", Kind::kBool,
                   0, 1, kNoChoices, MORNE_FIELD(advance_rank_counts_elevation)},
    RuleSwitchInfo{"advance_objective_hexes", "C-ADV-5, Q-C-6", "combat",
                   "Objective hexes that hold a victorious unit in place: those of either "
                   "side, or only those scoring for its own side.",
                   Kind::kChoice, 0, 0, kAdvanceObjectives, MORNE_FIELD(advance_objective_hexes)},
    RuleSwitchInfo{"general_advances", "C-ADV-7", "combat",
                   "Generals advance after combat like mounted units, or never.", Kind::kChoice, 0,
                   0, kGeneralAdvance, MORNE_FIELD(general_advances)},
    RuleSwitchInfo{"dromedary_advance_ranks", "C-ADV-3, Q-C-5", "combat",
                   "Terrain rank table used by dromedary units when advancing.", Kind::kChoice, 0,
                   0, kDromedaryRanks, MORNE_FIELD(dromedary_advance_ranks)},
    RuleSwitchInfo{"ford_allows_combat", "M-SIDE-3, Q-C-10", "combat",
                   "false: a forded river still forbids combat and breaks contact. true: a ford "
                   "counts as a stream for contact and combat.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(ford_allows_combat)},
    // --- rally ---
    RuleSwitchInfo{"rally_sides", "R-1, Q-R-1", "rally",
                   "Units that rally at the end of a player-turn: the phasing player's, or both "
                   "sides'.",
                   Kind::kChoice, 0, 0, kRallySides, MORNE_FIELD(rally_sides)},
    RuleSwitchInfo{"rally_bridge_connects", "M-CONTACT-2", "rally",
                   "A bridged hexside does not separate a unit from its general for rally.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(rally_bridge_connects)},
    // --- variant modules (docs/variants.md) ---
    RuleSwitchInfo{"morale_model", "V-MOR-1", "variants",
                   "How a morale test is decided: Morne Plaine's d9 against MO, seed 001's 2d6 "
                   "at most the morale factor, or seed 002's d6 score read on the quality table.",
                   Kind::kChoice, 0, 0, kMoraleModel, MORNE_FIELD(morale_model)},
    RuleSwitchInfo{"ancient_factor_offset", "V-MOR-2", "variants",
                   "ancient_2d6: morale factor of a unit without \"morale_factor\": its initial MO "
                   "plus this.",
                   Kind::kInt, 0, 6, kNoChoices, MORNE_FIELD(ancient_factor_offset)},
    RuleSwitchInfo{"ancient_factor_loses_mo", "V-MOR-2", "variants",
                   "ancient_2d6: each MO point a unit has lost lowers its morale factor by one; "
                   "false: the factor never changes.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(ancient_factor_loses_mo)},
    RuleSwitchInfo{"ancient_tests", "V-MOR-8", "variants",
                   "ancient_2d6: when a unit tests besides the charge and attacks at 1:2 or "
                   "worse: on Morne Plaine's CRT asterisk, or (seed 001) after every fire at it "
                   "and, as defender, after every combat.",
                   Kind::kChoice, 0, 0, kAncientTests, MORNE_FIELD(ancient_tests)},
    RuleSwitchInfo{"graded_base_offset", "V-MOR-4", "variants",
                   "graded_d6: base morale factor of a unit: its current MO plus this.", Kind::kInt,
                   -9, 3, kNoChoices, MORNE_FIELD(graded_base_offset)},
    RuleSwitchInfo{"failed_test", "V-ROUT-1", "variants",
                   "What a failed test does: Morne Plaine's one-hex retreat, seed 001's rout of "
                   "the full movement allowance, or seed 002's graded halt/retreat/rout/flight.",
                   Kind::kChoice, 0, 0, kFailedTest, MORNE_FIELD(failed_test)},
    RuleSwitchInfo{"graded_paces_per_hex", "V-ROUT-6", "variants",
                   "graded: paces a hex stands for in seed 002's rout and flight distances "
                   "(rounded to the nearest hex, at least one).",
                   Kind::kInt, 20, 200, kNoChoices, MORNE_FIELD(graded_paces_per_hex)},
    RuleSwitchInfo{"pursuit", "V-PUR-1", "variants",
                   "After a rout the winner advances one hex (none) or pursues along the "
                   "router's path with a free attack at the end (seed 001).",
                   Kind::kChoice, 0, 0, kPursuit, MORNE_FIELD(pursuit)},
    RuleSwitchInfo{"light_infantry_pursues", "V-PUR-2", "variants",
                   "ancient pursuit: light infantry pursues like cavalry; false: only cavalry "
                   "pursues.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(light_infantry_pursues)},
    RuleSwitchInfo{"defender_pursues", "V-PUR-6", "variants",
                   "ancient pursuit: a defender whose attacker routed pursues it too; false "
                   "(seed 001): only the phasing player's units pursue.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(defender_pursues)},
    RuleSwitchInfo{"pursuers_follow_off_map", "V-PUR-7", "variants",
                   "ancient pursuit: a pursuer follows its router off the map and is lost with "
                   "it (seed 001); false: it stops on the router's last hex.",
                   Kind::kBool, 0, 1, kNoChoices, MORNE_FIELD(pursuers_follow_off_map)},
    RuleSwitchInfo{"melee_factors", "V-MEL-1", "variants",
                   "Combat die modifiers of seed 003 (fresh troops, fatigue, flank and rear, "
                   "follow-up, disorder) on top of Morne Plaine's: none or seed003.",
                   Kind::kChoice, 0, 0, kMeleeFactors, MORNE_FIELD(melee_factors)},
    RuleSwitchInfo{"fatigue_cap", "V-MEL-3", "variants",
                   "seed003: most fatigue points a unit carries.", Kind::kInt, 1, 7, kNoChoices,
                   MORNE_FIELD(fatigue_cap)},
    RuleSwitchInfo{"flank_outside", "V-MEL-2, V-MOR-7", "variants",
                   "A defender engaged by two enemies is attacked in flank or rear from outside "
                   "the front of every one of them, or from outside the front of any one.",
                   Kind::kChoice, 0, 0, kFlankOutside, MORNE_FIELD(flank_outside)},
};

#undef MORNE_FIELD

}  // namespace

std::span<const RuleSwitchInfo> ruleSwitchTable() { return kTable; }

const RuleSwitchInfo* findRuleSwitch(std::string_view name) {
  for (const RuleSwitchInfo& info : kTable) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

std::string ruleSwitchValueText(const RuleSwitchInfo& info, int value) {
  switch (info.kind) {
    case RuleSwitchInfo::Kind::kBool:
      return value ? "true" : "false";
    case RuleSwitchInfo::Kind::kInt:
      return std::to_string(value);
    case RuleSwitchInfo::Kind::kChoice:
      return info.choices[static_cast<size_t>(value)];
  }
  return {};
}

}  // namespace morne::env
