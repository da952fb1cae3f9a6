#include "env/turn.h"

#include "env/combat.h"
#include "env/fire.h"
#include "env/movement.h"
#include "env/rally.h"
#include "env/rout.h"
#include "env/victory.h"

namespace morne::env {

namespace {

// Steps of a player-turn, in order (G-TURN-2).
enum class Stage : uint8_t {
  kStartTurn,
  kSetup,
  kCommandCheck,
  kBombardment,
  kMovement,
  kCombat,
  kRally,
  kEndTurn,
};

bool awaitingSetup(const GameState& s, int side) {
  for (int u = 0; u < s.num_units; ++u) {
    if (s.sideOf(u) == side && s.has(u, unit_flag::kAwaitingSetup)) return true;
  }
  return false;
}

// G-TURN-4 bookkeeping at the start of a player-turn.
void startPlayerTurn(GameState& s, EventLog* log) {
  const RuleSwitches& rules = s.sc().rules();
  record(log, {.type = EventType::kTurnBegins, .a = s.turn, .b = s.side});
  constexpr uint16_t kPerTurn = unit_flag::kMoved | unit_flag::kStepped | unit_flag::kHalted |
                                unit_flag::kFired | unit_flag::kAttacked | unit_flag::kCharged |
                                unit_flag::kStuck | unit_flag::kStuckHeld;
  const bool new_game_turn = s.side == 0;
  for (int u = 0; u < s.num_units; ++u) {
    uint16_t flags = s.unit(u).flags;
    if (s.sideOf(u) == s.side) {
      const bool held = (flags & unit_flag::kStuck) != 0 && rules.marsh_stuck_holds_next_turn;
      flags = static_cast<uint16_t>((flags & ~kPerTurn) | (held ? unit_flag::kStuckHeld : 0));
    } else {
      flags = static_cast<uint16_t>(flags & ~unit_flag::kReactionUsed);  // F-REACT-1
    }
    if (new_game_turn && rules.victorious_until == VictoriousUntil::kEndOfGameTurn) {
      flags = static_cast<uint16_t>(flags & ~unit_flag::kVictorious);
    }
    if (flags != s.unit(u).flags) setUnitFlags(s, u, flags);
    if (s.unit(u).trail != 0) setUnitTrail(s, u, 0);
    if (s.hasMorale(u, morale_bit::kRallyTested)) clearMoraleBits(s, u, morale_bit::kRallyTested);
  }
}

// End-of-combat-phase bookkeeping (G-TURN-4).
void closeCombatPhase(GameState& s) {
  const bool clear_victorious =
      s.sc().rules().victorious_until == VictoriousUntil::kEndOfCombatPhase;
  for (int u = 0; u < s.num_units; ++u) {
    uint16_t flags = static_cast<uint16_t>(s.unit(u).flags & ~unit_flag::kDefended);
    if (clear_victorious) flags = static_cast<uint16_t>(flags & ~unit_flag::kVictorious);
    if (flags != s.unit(u).flags) setUnitFlags(s, u, flags);
    if (s.hasMorale(u, morale_bit::kFellBack)) clearMoraleBits(s, u, morale_bit::kFellBack);
  }
}

// Enters decision phase p. Returns true if the phasing player has a decision to make there;
// otherwise records that the phase was passed through.
bool enterPhase(GameState& s, Phase p, EventLog* log) {
  setPhase(s, p);
  record(log, {.type = EventType::kPhaseBegins, .a = static_cast<int16_t>(p)});
  if (p == Phase::kMovement) prepareMovementPhase(s);
  if (hasDecision(s)) return true;
  record(log, {.type = EventType::kPhaseSkipped, .a = static_cast<int16_t>(p)});
  return false;
}

void finishGame(GameState& s, EventLog* log) {
  setHeader(s, s.sc().turns(), kNumSides - 1, Phase::kGameOver);
  const GameResult r = gameResult(s);
  record(log, {.type = EventType::kGameOver,
               .a = static_cast<int16_t>(r.vp[0]),
               .b = static_cast<int16_t>(r.vp[1])});
}

// Runs the player-turn sequence from `stage` until the phasing player has a decision to make
// or the game is over.
void run(GameState& s, Stage stage, EventLog* log) {
  const RuleSwitches& rules = s.sc().rules();
  for (;;) {
    switch (stage) {
      case Stage::kStartTurn:
        startPlayerTurn(s, log);
        stage = s.turn == 1 && awaitingSetup(s, s.side) ? Stage::kSetup : Stage::kCommandCheck;
        break;
      case Stage::kSetup:
        if (enterPhase(s, Phase::kSetup, log)) return;
        stage = Stage::kCommandCheck;
        break;
      case Stage::kCommandCheck:
        if (rules.first_turn_setup_only && s.turn == 1) {  // S-5
          stage = Stage::kEndTurn;
          break;
        }
        checkCommand(s, log);  // CMD-2, after set-up (S-6)
        stage = Stage::kBombardment;
        break;
      case Stage::kBombardment:
        if (enterPhase(s, Phase::kBombardment, log)) return;
        stage = Stage::kMovement;
        break;
      case Stage::kMovement:
        if (enterPhase(s, Phase::kMovement, log)) return;
        stage = Stage::kCombat;
        break;
      case Stage::kCombat:
        if (enterPhase(s, Phase::kCombat, log)) return;
        stage = Stage::kRally;
        break;
      case Stage::kRally:
        closeCombatPhase(s);
        if (rules.anyVariant() && variantRallyStep(s, log)) {  // V-ROUT-5, V-PUR-5
          if (s.phase != Phase::kRally) setPhase(s, Phase::kRally);
          return;
        }
        rallyPhase(s, log);  // §7
        stage = Stage::kEndTurn;
        break;
      case Stage::kEndTurn:
        if (s.side == 0) {
          setHeader(s, s.turn, 1, s.phase);
        } else if (s.turn >= s.sc().turns()) {
          finishGame(s, log);  // G-END-1
          return;
        } else {
          setHeader(s, s.turn + 1, 0, s.phase);
        }
        stage = Stage::kStartTurn;
        break;
    }
  }
}

Stage stageAfter(Phase p) {
  switch (p) {
    case Phase::kSetup:
      return Stage::kCommandCheck;
    case Phase::kBombardment:
      return Stage::kMovement;
    case Phase::kMovement:
      return Stage::kCombat;
    case Phase::kCombat:
    case Phase::kRally:
      return Stage::kRally;
    case Phase::kGameOver:
      break;
  }
  return Stage::kEndTurn;
}

}  // namespace

bool hasDecision(const GameState& s) {
  switch (s.phase) {
    case Phase::kSetup:
      return awaitingSetup(s, s.side);
    case Phase::kMovement:
      return hasMovementAction(s);
    case Phase::kBombardment: {
      ActionList fires;
      generateFireActions(s, fires);
      return !fires.empty();
    }
    case Phase::kCombat: {
      ActionList attacks;
      generateAttackActions(s, attacks);
      return !attacks.empty();
    }
    case Phase::kGameOver:
    case Phase::kRally:
      return false;
  }
  return false;
}

bool inCommand(const GameState& s, int u) {
  const Scenario& sc = s.sc();
  const int corps = sc.unit(u).corps;
  const int general = corps < 0 ? -1 : sc.corps()[static_cast<size_t>(corps)].general;
  if (general < 0) return sc.rules().independent_units_in_command;       // CMD-4
  if (!s.onMap(general)) return sc.rules().leaderless_corps_in_command;  // CMD-4
  return sc.distance(s.unit(u).cell, s.unit(general).cell) <= sc.unit(general).radius;
}

void startGame(GameState& s, EventLog* log) { run(s, Stage::kStartTurn, log); }

void checkCommand(GameState& s, EventLog* log) {
  for (int u = 0; u < s.num_units; ++u) {
    if (s.sideOf(u) != s.side || !s.onMap(u)) continue;
    if (inCommand(s, u)) {
      addUnitFlags(s, u, unit_flag::kInCommand);
    } else {
      clearUnitFlags(s, u, unit_flag::kInCommand);
      record(log, {.type = EventType::kOutOfCommand,
                   .unit = static_cast<int8_t>(u),
                   .from = s.unit(u).cell});
    }
  }
}

// MV-GEN-3 and MV-ROAD-2 at the start of the movement phase.
void prepareMovementPhase(GameState& s) {
  for (int u = 0; u < s.num_units; ++u) {
    if (s.sideOf(u) != s.side || !s.onMap(u)) continue;
    setUnitMp(s, u, movementAllowance(s, u));
    if (s.hasMorale(u, morale_bit::kHaltHeld)) clearMoraleBits(s, u, morale_bit::kHaltHeld);
    uint16_t flags = static_cast<uint16_t>(s.unit(u).flags & ~unit_flag::kStuckHeld);
    flags = s.sc().isRoadHex(s.unit(u).cell) ? static_cast<uint16_t>(flags | unit_flag::kRoadFree)
                                             : static_cast<uint16_t>(flags & ~unit_flag::kRoadFree);
    setUnitFlags(s, u, flags);
  }
}

void endPhase(GameState& s, EventLog* log) {
  record(log, {.type = EventType::kPhaseEnds, .a = static_cast<int16_t>(s.phase)});
  run(s, stageAfter(s.phase), log);
}

void continueIfIdle(GameState& s, EventLog* log) {
  if (s.isChanceNode() || s.isTerminal()) return;
  if (s.sc().rules().anyVariant() && startQueuedTest(s)) return;  // V-ROUT-4
  if (hasDecision(s)) return;
  record(log, {.type = EventType::kPhaseEnds, .a = static_cast<int16_t>(s.phase), .b = 1});
  run(s, stageAfter(s.phase), log);
}

}  // namespace morne::env
