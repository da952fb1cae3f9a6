#pragma once
// Wargame heuristics shared by the rule-based agent (which plays the best-scored action) and the
// MCTS agent (which turns the scores into search priors and uses the position evaluation at its
// leaves). They read the rule functions (combat odds, fire losses, charge tests), so the numbers
// are those the resolution will use, and the goal map (agents/goal_map.h) for routes.
//
// Scores are in "VC points": roughly the strength a side gains, or the enemy loses, by the
// action; a victory point is worth `objective` of them. "end" scores 0; an action is worth
// taking when it scores above 0.

#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "agents/goal_map.h"
#include "env/action.h"
#include "env/game_state.h"

namespace morne::agents {

// Tunable weights of the heuristics (documented in docs/agents.md).
struct HeuristicWeights {
  double objective = 3.0;       // per VP of an objective hex held or taken
  double approach = 1.0;        // per turn of movement nearer the unit's goal
  double cover = 0.6;           // per rank of defensive terrain (infantry), near the enemy
  double line = 0.3;            // per friendly unit alongside (up to 2), near the enemy
  double exposure = 1.5;        // artillery or general in contact with an enemy
  double command = 0.3;         // per hex outside the general's radius
  double guns_on_target = 0.2;  // per enemy in range and sight of a gun
  double value_scale = 0;       // evaluation = tanh(score difference / value_scale); 0: auto,
                                // 2 per unit other than generals (scores grow with the armies)
  double initiative = 0.5;      // share of the side to move's available attacks it is credited
};

// Not thread-safe (it caches the goal map of the last scenario seen): one per agent or thread.
class Heuristics {
 public:
  explicit Heuristics(HeuristicWeights weights = {}) : w_(weights) {}

  // The value of unit u standing on `cell` for its side: objectives held or taken, progress
  // towards the best objective it can still reach, terrain, exposure and command.
  double positionValue(const env::GameState& s, int u, env::CellId cell);

  // The score of a legal action in `s` from the phasing player's point of view.
  double scoreAction(const env::GameState& s, env::Action a);

  // Scores every action of `legal` into `scores` (same size) and returns the index of the best:
  // the first of the highest, so that on ties the canonical order decides and "end" (listed
  // first, score 0) wins unless something is worth doing.
  size_t scoreAll(const env::GameState& s, std::span<const env::Action> legal,
                  std::span<double> scores);

  // The expected result of a legal attack, from the CRT, die modifiers and morale-test odds:
  // expected enemy loss minus own loss (a gun or general counts more, an elimination adds 2),
  // plus the objective won when the defender is driven off one.
  double attackValue(const env::GameState& s, int attacker, int defender);

  // Static evaluation of a position from blue's point of view, in [-1, 1]: the difference of the
  // two sides' victory points held now, strength left and position values, in score units,
  // squashed by tanh(x / value_scale).
  double evaluate(const env::GameState& s);

  const HeuristicWeights& weights() const { return w_; }

 private:
  const GoalMap& goals(const env::Scenario& sc);
  // Which objective each unit heads for (-1: none), assigned greedily by value less distance,
  // one unit to an open objective and three to one the enemy holds.
  const std::array<int8_t, env::kMaxUnits>& goalPlan(const env::GameState& s);
  // Steps from `cell` to the nearest enemy of `side` along crossable hexsides (kFar if none).
  int enemyDistance(const env::GameState& s, int side, env::CellId cell);
  // Recomputes the goal plan and distance fields when `s` is not the state they were made for.
  void refresh(const env::GameState& s);
  // Fills `dist` with the steps from every cell to the nearest unit (or gun) of `side`.
  void stepsField(const env::GameState& s, int side, bool guns_only,
                  std::array<uint8_t, env::kMaxCells>& dist) const;
  static constexpr uint8_t kFar = 255;
  // What going for objective o is worth to `side`: half its VP, plus the enemy's if it holds it.
  double objectiveStake(const env::GameState& s, int objective, int side) const;
  // Turns of movement unit u needs from `from` to objective o (1e9 if it cannot get there).
  double turnsTo(const env::GameState& s, int u, int objective, env::CellId from);
  double fireValue(const env::GameState& s, env::Action a);
  // Whether stepping from `from` to `to` keeps unit u as near its goal while a friend blocks the
  // shorter way (such steps get a small bonus, so that units flow round each other).
  bool sidestepsAFriend(const env::GameState& s, int u, env::CellId from, env::CellId to);
  // The evaluation's scale: the weight's value, or 2 per unit other than generals.
  double valueScale(const env::Scenario& sc);
  double chargeValue(const env::GameState& s, env::Action a);

  HeuristicWeights w_;
  std::unique_ptr<GoalMap> goals_;
  // Per-state cache (refresh()).
  uint64_t cache_hash_ = 0;
  const env::Scenario* cache_scenario_ = nullptr;
  std::array<int8_t, env::kMaxUnits> plan_{};
  std::array<std::array<uint8_t, env::kMaxCells>, env::kNumSides> near_{};  // nearest unit
  std::array<std::array<uint8_t, env::kMaxCells>, env::kNumSides> guns_{};  // nearest gun
};

}  // namespace morne::agents
