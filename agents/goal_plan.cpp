#include "agents/goal_plan.h"

#include <algorithm>

#include "agents/board_facts.h"

namespace morne::agents {

using env::CellId;
using env::GameState;

const GoalMap& GoalPlan::goals(const env::Scenario& sc) {
  if (!goals_ || goals_->scenario() != &sc) goals_ = std::make_unique<GoalMap>(sc);
  return *goals_;
}

double GoalPlan::objectiveStake(const GameState& s, int objective, int side) const {
  const env::Objective& o = s.sc().objectives()[static_cast<size_t>(objective)];
  const int enemy = env::otherSide(side);
  const double deny = holds(s, o, enemy, -1) ? o.vp[static_cast<size_t>(enemy)] : 0;
  return w_.objective * w_.stake_share * (o.vp[static_cast<size_t>(side)] + deny);
}

double GoalPlan::turnsTo(const GameState& s, int u, int objective, CellId from) {
  const int mp = goals(s.sc()).distance(s.sc().moveClass(u), objective, from);
  if (mp == GoalMap::kUnreachable) return 1e9;
  return static_cast<double>(mp) / std::max(1, s.sc().unit(u).ma);
}

void GoalPlan::stepsField(const GameState& s, int side, bool guns_only,
                          std::array<uint8_t, env::kMaxCells>& dist) const {
  const env::Scenario& sc = s.sc();
  std::fill(dist.begin(), dist.begin() + sc.numCells(), kFar);
  std::array<CellId, env::kMaxCells> queue;
  size_t head = 0, tail = 0;
  for (int u = 0; u < s.num_units; ++u) {
    if (!s.onMap(u) || s.sideOf(u) != side || (guns_only && !env::isArtillery(s.typeOf(u))))
      continue;
    dist[static_cast<size_t>(s.unit(u).cell)] = 0;
    queue[tail++] = s.unit(u).cell;
  }
  while (head < tail) {
    const CellId c = queue[head++];
    for (int d = 0; d < env::kNumDirections; ++d) {
      const env::Hexside& h = sc.side(c, d);
      if (h.neighbor == env::kNoCell || !h.movable) continue;
      auto& next = dist[static_cast<size_t>(h.neighbor)];
      if (next <= dist[static_cast<size_t>(c)] + 1) continue;
      next = static_cast<uint8_t>(dist[static_cast<size_t>(c)] + 1);
      queue[tail++] = h.neighbor;
    }
  }
}

void GoalPlan::rebuild(const GameState& s) {
  cache_hash_ = s.hash;
  cache_scenario_ = s.scenario;
  const env::Scenario& sc = s.sc();

  // Steps from every cell to the nearest unit, and to the nearest gun, of each side, along the
  // hexsides a unit may cross (so a river without a bridge is no short cut): a breadth-first
  // search from all of the side's units at once.
  for (int side = 0; side < env::kNumSides; ++side) {
    stepsField(s, side, false, near_[static_cast<size_t>(side)]);
    stepsField(s, side, true, guns_[static_cast<size_t>(side)]);
  }

  plan_.fill(-1);
  const double turns_left = sc.turns() - s.turn + 1;
  struct Candidate {
    double score;
    int unit;
    int objective;
  };
  for (int side = 0; side < env::kNumSides; ++side) {
    std::array<Candidate, env::kMaxUnits * 4> candidates;
    size_t n = 0;
    std::array<int, 16> room{};  // units each objective still takes
    const int num_objectives = std::min<int>(static_cast<int>(sc.objectives().size()), 16);
    for (int i = 0; i < num_objectives; ++i) {
      const env::Objective& o = sc.objectives()[static_cast<size_t>(i)];
      if (o.vp[static_cast<size_t>(side)] <= 0 || holds(s, o, side, -1)) continue;
      // An objective the enemy holds needs attackers and supports; an open one, one unit.
      room[static_cast<size_t>(i)] =
          !o.passing && holds(s, o, env::otherSide(side), -1) ? w_.attackers_per_held : 1;
    }
    for (int u = 0; u < s.num_units; ++u) {
      if (!s.onMap(u) || s.sideOf(u) != side || env::isGeneral(s.typeOf(u))) continue;
      if (garrisons(s, u)) continue;  // it holds an occupied objective: it stays
      for (int i = 0; i < num_objectives && n < candidates.size(); ++i) {
        if (room[static_cast<size_t>(i)] == 0) continue;
        const double turns = turnsTo(s, u, i, s.unit(u).cell);
        if (turns > turns_left) continue;
        candidates[n++] = {objectiveStake(s, i, side) - w_.approach * turns, u, i};
      }
    }
    std::sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n),
              [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    for (size_t k = 0; k < n; ++k) {
      const Candidate& c = candidates[k];
      if (plan_[static_cast<size_t>(c.unit)] >= 0 || room[static_cast<size_t>(c.objective)] == 0)
        continue;
      plan_[static_cast<size_t>(c.unit)] = static_cast<int8_t>(c.objective);
      --room[static_cast<size_t>(c.objective)];
    }
  }
}

}  // namespace morne::agents
