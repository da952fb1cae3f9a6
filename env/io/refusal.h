#pragma once
// Why the rules refuse an action: a stable machine-readable reason, the ID of the rule that
// refuses it (docs/rules-coverage.md) and one sentence for the player. The protocol sends all
// three, so that a client can react to the reason and show the sentence.

#include <optional>
#include <span>
#include <string>

namespace morne::env {

// Every reason the rules give for refusing an action or a preview. One row each in
// refusalReasons(), from which the protocol's codes and their documentation follow.
enum class RefusalReason {
  kGameOver,
  kChancePending,
  kNoChancePending,
  kImpossibleOutcome,
  kChargeDecisionPending,
  kWrongPhase,
  kSetupIncomplete,
  kOutsideSetupZone,
  kHexOccupied,
  kNoUnit,
  kNotOnMap,
  kHiddenInformation,
  kNotYourUnit,
  kNotAdjacent,
  kOffMap,
  kStuck,
  kMovementOver,
  kNotEnoughMovementPoints,
  kImpassableHexside,
  kDemoralised,
  kOutOfControl,
  kNotCavalry,
  kAlreadyCharged,
  kChargeWithoutMove,
  kNoEnemyTarget,
  kNotInContact,
  kGeneralImmune,
  kAlreadyAttacked,
  kAlreadyDefended,
  kCannotAttack,
  kZeroStrength,
  kNotArtillery,
  kAlreadyFired,
  kFireFromCover,
  kFireNotAllowed,
  kOutOfRange,
  kNoLineOfSight,  // the last: refusal.cpp checks its table against it
};

// A reason's protocol code ("out_of_range") and what it means, for help and documentation.
struct RefusalReasonInfo {
  RefusalReason reason;
  const char* code;
  const char* meaning;
};

// Every reason, in declaration order.
std::span<const RefusalReasonInfo> refusalReasons();

// The protocol code of `reason`.
const char* refusalCode(RefusalReason reason);

// One refusal: the reason, the rule ID that refuses ("F-GEN-3"; empty where no single rule
// does, as for a hex without a unit) and a sentence naming the units and hexes concerned.
struct Refusal {
  RefusalReason reason;
  std::string rule;
  std::string message;
};

}  // namespace morne::env
