#include "nn/policy_layout.h"

#include <algorithm>

#include "env/agent_actions.h"
#include "env/check.h"
#include "env/hex.h"
#include "env/rules.h"

namespace morne::nn {

PolicyLayout::PolicyLayout(const env::Scenario& sc) : PolicyLayout(sc, env::actionPlanes(sc)) {}

PolicyLayout::PolicyLayout(const env::Scenario& sc, int planes)
    : sc_(&sc),
      planes_(planes),
      scenario_planes_(env::actionPlanes(sc)),
      area_(sc.height() * sc.width()),
      size_(planes_ * area_ + 2),
      grid_of_cell_(static_cast<size_t>(sc.numCells())),
      cell_of_grid_(static_cast<size_t>(area_), env::kNoCell) {
  MORNE_CHECK(planes_ >= scenario_planes_, "a policy layout with fewer planes than the scenario's");
  for (env::CellId c = 0; c < sc.numCells(); ++c) {
    int col = 0, row = 0;
    env::axialToOffset(sc.hexOf(c), sc.layout(), col, row);
    const int g = row * sc.width() + col;
    grid_of_cell_[static_cast<size_t>(c)] = g;
    cell_of_grid_[static_cast<size_t>(g)] = c;
  }
}

int PolicyLayout::index(env::Action a) const {
  const int flat = env::actionIndex(*sc_, a);
  const int cells = sc_->numCells();
  if (flat >= scenario_planes_ * cells)
    return planes_ * area_ + (flat - scenario_planes_ * cells);  // end, hold
  int plane = flat / cells;
  if (plane == scenario_planes_ - 1) plane = planes_ - 1;  // place
  return plane * area_ + grid_of_cell_[static_cast<size_t>(flat % cells)];
}

std::optional<env::Action> PolicyLayout::action(int index) const {
  if (index < 0 || index >= size_) return std::nullopt;
  const int cells = sc_->numCells();
  if (index >= planes_ * area_)
    return env::actionFromIndex(*sc_, scenario_planes_ * cells + (index - planes_ * area_));
  const env::CellId c = cell_of_grid_[static_cast<size_t>(index % area_)];
  if (c == env::kNoCell) return std::nullopt;
  int plane = index / area_;
  if (plane == planes_ - 1) {
    plane = scenario_planes_ - 1;  // place
  } else if (plane >= scenario_planes_ - 1) {
    return std::nullopt;  // a fire offset beyond the scenario's range
  }
  return env::actionFromIndex(*sc_, plane * cells + c);
}

int PolicyLayout::legalMask(const env::GameState& s, std::span<uint8_t> mask) const {
  MORNE_CHECK(static_cast<int>(mask.size()) == size_,
              "a legal mask of another size than the layout's");
  std::fill(mask.begin(), mask.end(), uint8_t{0});
  env::ActionList legal;
  env::agentActions(s, legal);
  for (const env::Action& a : legal) mask[static_cast<size_t>(index(a))] = 1;
  return static_cast<int>(legal.size());
}

}  // namespace morne::nn
