#include "env/io/refusal.h"

#include <array>

#include "env/check.h"

namespace morne::env {

namespace {

constexpr std::array kReasons = {
    RefusalReasonInfo{RefusalReason::kGameOver, "game_over", "the game is over"},
    RefusalReasonInfo{RefusalReason::kChancePending, "chance_pending",
                      "a chance event is pending: apply or roll its outcome first"},
    RefusalReasonInfo{RefusalReason::kNoChancePending, "no_chance_pending",
                      "an outcome was given but no chance event is pending"},
    RefusalReasonInfo{RefusalReason::kImpossibleOutcome, "impossible_outcome",
                      "the outcome is not one the pending chance event can draw"},
    RefusalReasonInfo{RefusalReason::kChargeDecisionPending, "charge_decision_pending",
                      "a cavalry unit must first decide whether to charge (\"hold\" or a charge)"},
    RefusalReasonInfo{RefusalReason::kWrongPhase, "wrong_phase",
                      "the action belongs to another phase"},
    RefusalReasonInfo{RefusalReason::kSetupIncomplete, "setup_incomplete",
                      "set-up ends only when every unit is placed"},
    RefusalReasonInfo{RefusalReason::kOutsideSetupZone, "outside_setup_zone",
                      "the hex is outside the side's set-up zone"},
    RefusalReasonInfo{RefusalReason::kHexOccupied, "hex_occupied",
                      "the hex holds a unit: no stacking, no passing through"},
    RefusalReasonInfo{RefusalReason::kNoUnit, "no_unit", "no unit stands on the hex"},
    RefusalReasonInfo{RefusalReason::kNotOnMap, "not_on_map",
                      "the unit is eliminated or not placed yet"},
    RefusalReasonInfo{RefusalReason::kHiddenInformation, "hidden_information",
                      "the answer would show the side served what it may not see yet"},
    RefusalReasonInfo{RefusalReason::kNotYourUnit, "not_your_unit",
                      "the unit belongs to the side not to act"},
    RefusalReasonInfo{RefusalReason::kNotAdjacent, "not_adjacent",
                      "the two hexes are not adjacent"},
    RefusalReasonInfo{RefusalReason::kOffMap, "off_map", "the step leaves the map"},
    RefusalReasonInfo{RefusalReason::kStuck, "stuck", "the unit is stuck in a marsh this phase"},
    RefusalReasonInfo{RefusalReason::kMovementOver, "movement_over",
                      "the unit's movement is over (it charged, or entered enemy control)"},
    RefusalReasonInfo{RefusalReason::kNotEnoughMovementPoints, "not_enough_movement_points",
                      "the step costs more movement points than the unit has left"},
    RefusalReasonInfo{RefusalReason::kImpassableHexside, "impassable_hexside",
                      "a cliff, or a river without bridge or ford"},
    RefusalReasonInfo{RefusalReason::kDemoralised, "demoralised",
                      "a demoralised unit may not do this"},
    RefusalReasonInfo{RefusalReason::kOutOfControl, "out_of_control",
                      "a routed or pursuing unit acts only by its rout or pursuit "
                      "(docs/variants.md)"},
    RefusalReasonInfo{RefusalReason::kNotCavalry, "not_cavalry", "only cavalry charges"},
    RefusalReasonInfo{RefusalReason::kAlreadyCharged, "already_charged",
                      "the unit has already charged this turn"},
    RefusalReasonInfo{RefusalReason::kChargeWithoutMove, "charge_without_move",
                      "a charge follows a move under this scenario's rules"},
    RefusalReasonInfo{RefusalReason::kNoEnemyTarget, "no_enemy_target",
                      "no enemy unit on the target hex"},
    RefusalReasonInfo{RefusalReason::kNotInContact, "not_in_contact",
                      "the hexside between the units breaks contact"},
    RefusalReasonInfo{RefusalReason::kGeneralImmune, "general_immune",
                      "generals are immune to charges"},
    RefusalReasonInfo{RefusalReason::kAlreadyAttacked, "already_attacked",
                      "the unit has already attacked this phase"},
    RefusalReasonInfo{RefusalReason::kAlreadyDefended, "already_defended",
                      "the target has already been attacked this phase"},
    RefusalReasonInfo{RefusalReason::kCannotAttack, "cannot_attack",
                      "artillery and generals do not attack under this scenario's rules"},
    RefusalReasonInfo{RefusalReason::kZeroStrength, "zero_strength",
                      "the attack would have strength 0"},
    RefusalReasonInfo{RefusalReason::kNotArtillery, "not_artillery", "only artillery fires"},
    RefusalReasonInfo{RefusalReason::kAlreadyFired, "already_fired",
                      "the gun has already fired this phase"},
    RefusalReasonInfo{RefusalReason::kFireFromCover, "fire_from_cover",
                      "artillery does not fire out of woods or a village"},
    RefusalReasonInfo{RefusalReason::kFireNotAllowed, "fire_not_allowed",
                      "the scenario's rules do not let this gun fire"},
    RefusalReasonInfo{RefusalReason::kOutOfRange, "out_of_range",
                      "the target is beyond the gun's range"},
    RefusalReasonInfo{RefusalReason::kNoLineOfSight, "no_line_of_sight",
                      "no line of sight from the gun to the target"},
};

constexpr bool reasonsInOrder() {
  for (size_t i = 0; i < kReasons.size(); ++i) {
    if (static_cast<size_t>(kReasons[i].reason) != i) return false;
  }
  return true;
}
static_assert(reasonsInOrder() &&
                  kReasons.size() == static_cast<size_t>(RefusalReason::kNoLineOfSight) + 1,
              "kReasons must list every RefusalReason once, in declaration order");

}  // namespace

std::span<const RefusalReasonInfo> refusalReasons() { return kReasons; }

const char* refusalCode(RefusalReason reason) {
  const auto i = static_cast<size_t>(reason);
  MORNE_CHECK(i < kReasons.size(), "unknown refusal reason");
  return kReasons[i].code;
}

}  // namespace morne::env
