#pragma once
// VectorGame: n games of one scenario stepped together in C++ (morne.VectorGame, docs/python.md),
// their observations, masks and rewards written into flat arrays that Python reads without a
// copy. Each slot has its own dice (Rng(deriveSeed(seed, slot))), so a slot's games are those of
// one State stepped with the same actions and dice, whatever the number of threads. A finished
// game is replaced by a new one at once (auto-reset); its returns stay in rewards() for the step
// that ended it.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "env/game_state.h"
#include "env/rng.h"
#include "nn/observation.h"

namespace morne::python {

class VectorGame {
 public:
  // n games of `scenario` (which must outlive this), dice seeded from `seed`; with
  // `auto_chance` the dice are rolled inside step() and every slot waits at a decision, else a
  // slot may wait at a chance node (player -1) for its outcome. `threads`: workers of step()
  // (1: the calling thread).
  VectorGame(const env::Scenario& scenario, int n, uint64_t seed, bool auto_chance, int threads);

  int size() const { return static_cast<int>(states_.size()); }
  const nn::ObservationShape& shape() const { return shape_; }
  int numActions() const { return num_actions_; }

  // Restarts every slot (its dice too) and fills the arrays.
  void reset();
  // Plays actions[i] in slot i: an action index at a decision, an outcome value at a chance
  // node. Checks every slot first and throws std::invalid_argument naming the first bad one,
  // leaving all of them unchanged. Then rolls dice (auto_chance), restarts finished games and
  // refills the arrays.
  void step(std::span<const int32_t> actions);

  // The arrays, one row per slot, rewritten by reset() and step().
  std::vector<float>& planes() { return planes_; }     // n x planes x height x width
  std::vector<float>& globals() { return globals_; }   // n x globals
  std::vector<uint8_t>& masks() { return masks_; }     // n x numActions(): 1 where legal
  std::vector<int8_t>& players() { return players_; }  // side to act, or -1 at a chance node
  std::vector<float>& rewards() { return rewards_; }   // n x 2: returns of a game just ended
  std::vector<uint8_t>& dones() { return dones_; }     // 1 where a game ended in this step
  // Games finished in slot i since reset().
  int64_t episodes(int i) const { return episodes_[static_cast<size_t>(i)]; }
  const env::GameState& state(int i) const { return states_[static_cast<size_t>(i)]; }

 private:
  // Rolls dice (auto_chance) and restarts a finished game; then writes slot i's rows.
  void settle(int i);
  void writeRows(int i);

  const env::Scenario* scenario_;
  nn::ObservationEncoder encoder_;
  nn::ObservationShape shape_;
  int num_actions_;
  uint64_t seed_;
  bool auto_chance_;
  int threads_;
  std::vector<env::GameState> states_;
  std::vector<env::Rng> dice_;
  std::vector<int64_t> episodes_;
  std::vector<float> planes_, globals_, rewards_;
  std::vector<uint8_t> masks_, dones_;
  std::vector<int8_t> players_;
};

}  // namespace morne::python
