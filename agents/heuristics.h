#pragma once
// Wargame heuristics shared by the rule-based agent (which plays the best-scored action) and the
// MCTS agent (which turns the scores into search priors and uses the position evaluation at its
// leaves). They read the rule functions (combat odds, fire losses, charge tests), so the numbers
// are those the resolution will use, and the goal map (agents/goal_map.h) for routes.
//
// Scores are in "VC points": roughly the strength a side gains, or the enemy loses, by the
// action; a victory point is worth `objective` of them (agents/heuristic_weights.h). "end" scores
// 0; an action is worth taking when it scores above 0.

#include <cstddef>
#include <span>

#include "agents/goal_plan.h"
#include "agents/heuristic_weights.h"
#include "env/action.h"
#include "env/game_state.h"
#include "env/tactics.h"

namespace morne::agents {

// Not thread-safe (it caches the goal plan of the last position seen): one per agent or thread.
// Implemented by concern: action scores in agents/action_scores.cpp, position values and the
// evaluation in agents/position_value.cpp, the board-wide plan in agents/goal_plan.h.
class Heuristics {
 public:
  explicit Heuristics(HeuristicWeights weights = {}) : w_(weights), plan_(weights) {}

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
  // The parts of positionValue, each adding to `v` (agents/position_value.cpp).
  void addCommandValue(const env::GameState& s, int u, env::CellId cell, double& v) const;
  void addGoalValue(const env::GameState& s, int u, env::CellId cell, double& v);
  void addGroundValue(const env::GameState& s, int u, env::CellId cell, double& v) const;
  double fireValue(const env::GameState& s, env::Action a);
  double chargeValue(const env::GameState& s, env::Action a);
  // The expected worth, in retreats, of a test of `unit` with these odds to the enemy side:
  // a Morne Plaine failure is one retreat; the variant modules' halts, routs and flights are
  // worth what their effect is (halt_result, rout_result, an elimination for flight).
  double testResultWorth(const env::GameState& s, int unit, const env::MoraleOdds& odds) const;
  // Whether stepping from `from` to `to` keeps unit u as near its goal while a friend blocks the
  // shorter way (such steps get a small bonus, so that units flow round each other).
  bool sidestepsAFriend(const env::GameState& s, int u, env::CellId from, env::CellId to);
  // The evaluation's scale: the weight's value, or auto_scale_per_unit per unit other than
  // generals.
  double valueScale(const env::Scenario& sc) const;

  HeuristicWeights w_;
  GoalPlan plan_;
};

}  // namespace morne::agents
