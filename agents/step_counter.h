#pragma once
// Counts how a game's units move: movement steps, and the steps that go back over ground the
// unit has already covered in the same player-turn. A reversal undoes the unit's previous step
// (0907>0807 then 0807>0907); a revisit enters any hex the unit left earlier in the player-turn
// (reversals included). Both are legal but gain nothing, and a client shows them as units
// dancing: the arena reports them per agent (docs/agents.md, "Steps that go back").

#include <array>
#include <bitset>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::agents {

struct StepCounts {
  int steps = 0;
  int reversals = 0;
  int revisits = 0;
};

class StepCounter {
 public:
  // Records the decision `a` taken in `before` (anything but a movement step only moves the
  // player-turn on).
  void onDecision(const env::GameState& before, env::Action a);

  // Counts per side (0 blue, 1 orange).
  const std::array<StepCounts, env::kNumSides>& counts() const { return counts_; }

 private:
  std::array<StepCounts, env::kNumSides> counts_{};
  std::array<std::bitset<env::kMaxCells>, env::kMaxUnits> left_{};  // hexes left this turn
  std::array<env::CellId, env::kMaxUnits> previous_{};  // hex left by the unit's last step
  int turn_ = -1;  // the player-turn being tracked (game turn x 2 + side)
};

}  // namespace morne::agents
