#pragma once
// Where each unit is heading, and how far every hex is from the enemy: the part of the
// heuristics (agents/heuristics.h) that looks at the whole board. Computed once per position
// and cached by its hash, so that scoring every action of a position costs one plan.

#include <array>
#include <cstdint>
#include <memory>

#include "agents/goal_map.h"
#include "agents/heuristic_weights.h"
#include "env/game_state.h"

namespace morne::agents {

// Not thread-safe (it caches the last position and scenario seen): one per Heuristics.
class GoalPlan {
 public:
  static constexpr uint8_t kFar = 255;  // no unit of that side can be reached

  explicit GoalPlan(const HeuristicWeights& w) : w_(w) {}

  // Recomputes the plan and the distance fields when `s` is not the position they were made
  // for. Every query below answers for the position last refreshed.
  void refresh(const env::GameState& s) {
    if (cache_hash_ != s.hash || cache_scenario_ != s.scenario) rebuild(s);
  }

  // The objective unit u heads for (-1: none): assigned greedily by value less distance, one
  // unit to an open objective and attackers_per_held to one the enemy holds.
  int goalOf(int u) const { return plan_[static_cast<size_t>(u)]; }
  // Steps from `cell` to the nearest enemy of `side` along crossable hexsides (kFar if none).
  int enemyDistance(int side, env::CellId cell) const {
    return near_[static_cast<size_t>(env::otherSide(side))][static_cast<size_t>(cell)];
  }
  // Steps from `cell` to the nearest enemy gun of `side` (kFar if none).
  int enemyGunDistance(int side, env::CellId cell) const {
    return guns_[static_cast<size_t>(env::otherSide(side))][static_cast<size_t>(cell)];
  }

  // What going for objective o is worth to `side`: a share of its VP, plus the enemy's if it
  // holds it.
  double objectiveStake(const env::GameState& s, int objective, int side) const;
  // Turns of movement unit u needs from `from` to objective o (1e9 if it cannot get there).
  double turnsTo(const env::GameState& s, int u, int objective, env::CellId from);
  // The movement-point routes to the objectives of `sc`.
  const GoalMap& goals(const env::Scenario& sc);

 private:
  // Makes the plan and the distance fields for `s`.
  void rebuild(const env::GameState& s);
  // Fills `dist` with the steps from every cell to the nearest unit (or gun) of `side`.
  void stepsField(const env::GameState& s, int side, bool guns_only,
                  std::array<uint8_t, env::kMaxCells>& dist) const;

  HeuristicWeights w_;
  std::unique_ptr<GoalMap> goals_;
  uint64_t cache_hash_ = 0;
  const env::Scenario* cache_scenario_ = nullptr;
  std::array<int8_t, env::kMaxUnits> plan_{};
  std::array<std::array<uint8_t, env::kMaxCells>, env::kNumSides> near_{};  // nearest unit
  std::array<std::array<uint8_t, env::kMaxCells>, env::kNumSides> guns_{};  // nearest gun
};

}  // namespace morne::agents
