#pragma once
// The policy a neural network outputs: the engine's action planes (env/action.h: 6 move,
// 6 charge, 6 attack, one per fire offset, place) laid over the map grid, plane x height x
// width, then "end" and "hold". Grid positions without a hex, and plane entries no action can
// use, are simply never legal. A network made for longer fire ranges than a scenario's has more
// fire planes: the layout then has the network's planes, the scenario's fire offsets first and
// the place plane last, the other fire planes never legal. NN-free.

#include <optional>
#include <span>
#include <vector>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::nn {

class PolicyLayout {
 public:
  // The layout of `sc`'s own action planes (env::actionPlanes).
  explicit PolicyLayout(const env::Scenario& sc);
  // The layout over `planes` action planes. Precondition: planes >= env::actionPlanes(sc).
  PolicyLayout(const env::Scenario& sc, int planes);

  // Number of policy entries: planes x height x width + 2.
  int size() const { return size_; }
  int planes() const { return planes_; }

  // The policy entry of an action of the scenario.
  int index(env::Action a) const;
  // The action of a policy entry, or nullopt when the entry is off the map or out of range.
  std::optional<env::Action> action(int index) const;

  // Fills `mask` (size() bytes) with 1 at the entries of the actions agents choose from in `s`
  // (env/agent_actions.h) and 0 elsewhere; returns their number. Precondition: `s` is a
  // decision node.
  int legalMask(const env::GameState& s, std::span<uint8_t> mask) const;

 private:
  const env::Scenario* sc_;
  int planes_;
  int scenario_planes_;  // env::actionPlanes(*sc_): its place plane is the layout's last
  int area_;
  int size_;
  std::vector<int> grid_of_cell_;
  std::vector<env::CellId> cell_of_grid_;  // kNoCell where the grid has no hex
};

}  // namespace morne::nn
