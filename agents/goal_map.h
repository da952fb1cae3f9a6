#pragma once
// Movement-point distances from every hex to each objective hex, per movement class, on the
// empty map (units ignored): the routes round rivers, marshes and cliffs that the heuristics
// use to send units to their goals. Computed once per scenario (a few microseconds a field).

#include <cstdint>
#include <vector>

#include "env/scenario.h"

namespace morne::agents {

class GoalMap {
 public:
  static constexpr int kUnreachable = 0xFFFF;

  explicit GoalMap(const env::Scenario& sc);

  const env::Scenario* scenario() const { return scenario_; }

  // Movement points a unit of class m spends to walk from `from` to objective `objective`
  // (index into sc.objectives()), or kUnreachable.
  int distance(env::MoveClass m, int objective, env::CellId from) const {
    return dist_[(static_cast<size_t>(m) * num_objectives_ + static_cast<size_t>(objective)) *
                     num_cells_ +
                 static_cast<size_t>(from)];
  }

 private:
  const env::Scenario* scenario_;
  size_t num_cells_;
  size_t num_objectives_;
  std::vector<uint16_t> dist_;  // [class][objective][cell]
};

}  // namespace morne::agents
