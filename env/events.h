#pragma once
// Events: what an action or a chance outcome caused, in the order it happened (steps, dice,
// tests, retreats, eliminations, phase changes). Rule code records them into a caller-owned
// EventLog when one is given; search passes none and pays nothing.

#include <cstdint>
#include <string>

#include "env/fixed_vector.h"
#include "env/scenario.h"

namespace morne::env {

enum class EventType : uint8_t {
  kTurnBegins,    // a: game turn, b: phasing side
  kPhaseBegins,   // a: Phase
  kPhaseSkipped,  // a: Phase that offered no decision and was passed through
  kPhaseEnds,     // a: Phase; b: 1 if it ended by itself because no decision was left
  kOutOfCommand,  // unit: out of command for this player-turn (CMD-2, CMD-3)
  kPlaced,        // unit placed at `to` (S-2)
  kStep,          // unit from -> to, a: MP spent, b: MP left, c: 1 for a road step
  kZocStop,       // unit entered an enemy-controlled hex `to` and stops (MV-ZOC-2)
  kMarshTest,     // unit: a: d4 drawn, b: stuck threshold, c: 1 if stuck (MV-MARSH-1)
  kCharge,        // unit (cavalry) charges `other` (MV-CHG-5)
  kChargeTest,    // unit: charged unit; a: d9, b: modifier, c: 1 if the test failed
  kRetreat,       // unit from -> to, other: responsible unit (C-RET-*)
  kNoRetreat,     // unit had no hex to retreat to (C-RET-3)
  kMoraleChange,  // unit: a: change, b: new MO
  kVcChange,      // unit: a: change, b: new VC
  kEliminated,    // unit removed from `from` (U-ELIM-1)
  kOwnerChange,   // to: tracked hex, a: new owner side (V-HEX-2)
  kFortControl,   // to: fort hex, a: new controlling side (M-FORT-1)
  kFire,          // unit (gun) fires at `other`; a: 1 for reaction fire (F-GEN-1, F-REACT-2)
  kFireResult,    // unit (gun) at `other`: a: d4, b: modifiers, c: loss points (F-RES-1)
  kFireCoin,      // unit (target): a: 1 MO or 2 VC, b: points decided (F-LOSS-1)
  kLossIgnored,   // unit (a general) ignores a loss point drawn for MO (F-LOSS-3)
  kHold,          // unit (cavalry) does not charge; reaction fire follows (MV-CHG-5)
  kAttack,        // unit attacks `other`: a: attack strength, b: defence, c: odds column
  kCombatResult,  // unit (attacker), other (defender): a: d6, b: modified die 0..7,
                  // c: CRT cell (attacker loss | defender loss << 4 | tests << 8)
  kMoraleTest,    // unit: a: d9 (0 when the result is certain), b: MO, c: 1 if failed (C-MOR-1)
  kVictorious,    // unit becomes victorious (C-VIC-1)
  kAdvance,       // unit advances from -> to (C-ADV-1)
  kRally,         // unit: a: MO regained, b: new MO (R-*)
  kGameOver,      // a: VP blue, b: VP orange (V-LEVEL-1)
  // Variant modules (docs/variants.md):
  kMoraleResult,   // unit: a: die, b: factor (2d6) / score without die (d6) / MO (d9),
                   // c: MoraleOutcome, other: the responsible enemy (V-MOR-*)
  kRout,           // unit runs from -> to (to: none when it leaves), other: responsible unit;
                   // a: hexes run, b: 0 on the map, 1 left by its edge, 2 fled, 3 captured
  kPursuit,        // unit follows `other` from -> to (V-PUR-3)
  kFreeAttack,     // unit (pursuer) on `other`: a: d6, b: odds column, c: VC lost (V-PUR-4)
  kBackInOrder,    // unit rallied (a: 0) or stopped its pursuit (a: 1) (V-ROUT-5, V-PUR-5)
  kHalt,           // unit may not move in its next movement phase (V-ROUT-6)
  kAttackRefused,  // unit failed its test to attack `other` at poor odds: no combat (V-MOR-6)
};

struct Event {
  EventType type = EventType::kTurnBegins;
  int8_t unit = -1;
  int8_t other = -1;
  CellId from = kNoCell;
  CellId to = kNoCell;
  int16_t a = 0;
  int16_t b = 0;
  int16_t c = 0;
};

// A bounded event buffer. One action causes at most a few dozen events; a log that fills up
// drops the rest and says so (overflowed()).
class EventLog {
 public:
  void add(const Event& e) {
    if (events_.size() < events_.capacity()) {
      events_.push_back(e);
    } else {
      overflowed_ = true;
    }
  }
  void clear() {
    events_.clear();
    overflowed_ = false;
  }
  size_t size() const { return events_.size(); }
  const Event& operator[](size_t i) const { return events_[i]; }
  const Event* begin() const { return events_.begin(); }
  const Event* end() const { return events_.end(); }
  bool overflowed() const { return overflowed_; }

 private:
  FixedVector<Event, 256> events_;
  bool overflowed_ = false;
};

// Records `e` if `log` is not null.
inline void record(EventLog* log, const Event& e) {
  if (log) log->add(e);
}

std::string_view eventTypeName(EventType t);

}  // namespace morne::env
