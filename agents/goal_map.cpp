#include "agents/goal_map.h"

#include <functional>
#include <queue>
#include <utility>

namespace morne::agents {

namespace {

// Cost of the step from `from` across its hexside `dir`, as MV-COST-1..5 and MV-ROAD-1 price it
// for a fresh unit on the empty map (a road step costs 1: the free step is not counted).
int stepCost(const env::Scenario& sc, env::MoveClass m, env::CellId from, int dir) {
  const env::Hexside& h = sc.side(from, dir);
  if (h.road) return 1;
  if (h.track_cost > 0) return h.track_cost;
  return sc.enterCost(m, h.neighbor) + h.step_extra;
}

}  // namespace

GoalMap::GoalMap(const env::Scenario& sc)
    : scenario_(&sc),
      num_cells_(static_cast<size_t>(sc.numCells())),
      num_objectives_(sc.objectives().size()),
      dist_(env::kNumMoveClasses * num_objectives_ * num_cells_, kUnreachable) {
  using Entry = std::pair<int, env::CellId>;
  for (int m = 0; m < env::kNumMoveClasses; ++m) {
    const auto mc = static_cast<env::MoveClass>(m);
    for (size_t o = 0; o < num_objectives_; ++o) {
      uint16_t* dist = &dist_[(static_cast<size_t>(m) * num_objectives_ + o) * num_cells_];
      // Dijkstra backwards from the objective: dist[c] = cost(c -> n) + dist[n].
      std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
      const env::CellId goal = sc.objectives()[o].cell;
      dist[goal] = 0;
      open.push({0, goal});
      while (!open.empty()) {
        const auto [d, c] = open.top();
        open.pop();
        if (d > dist[c]) continue;
        for (int dir = 0; dir < env::kNumDirections; ++dir) {
          const env::CellId n = sc.neighbor(c, dir);
          if (n == env::kNoCell) continue;
          const int back = env::oppositeDirection(dir);
          if (!sc.side(n, back).movable) continue;
          const int cost = stepCost(sc, mc, n, back);
          const int nd = d + cost;
          if (nd < dist[n]) {
            dist[n] = static_cast<uint16_t>(nd);
            open.push({nd, n});
          }
        }
      }
    }
  }
}

}  // namespace morne::agents
