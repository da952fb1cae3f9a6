#pragma once
// Every number the wargame heuristics use (agents/heuristics.h), in one struct so that they can
// be tuned (docs/agents.md explains them). Scores are in "VC points": roughly the strength a
// side gains, or the enemy loses, by an action.

namespace morne::agents {

struct HeuristicWeights {
  // --- objectives and routes (agents/goal_plan.h, agents/position_value.cpp) ---
  double objective = 3.0;       // per VP of an objective hex held or taken
  double stake_share = 0.5;     // share of an objective's VP a unit heading for it counts
  double garrison_bonus = 1.0;  // VP added to an occupied objective held (so garrisons stay)
  int attackers_per_held = 3;   // units sent to an objective the enemy holds (1 to an open one)
  double approach = 1.0;        // per turn of movement nearer the unit's goal
  double gun_hunt = 2.5;        // goal value of reaching an enemy gun
  int close_in_steps = 20;      // farthest enemy distance counted when there is no goal
  // --- the ground a unit stands on (agents/position_value.cpp) ---
  int near_enemy_steps = 3;     // within this many steps of the enemy, cover and line count
  double cover = 0.6;           // per rank of defensive terrain (infantry), near the enemy
  double line = 0.3;            // per friendly unit alongside, near the enemy
  int line_friends = 2;         // ... counted up to this many
  double outmatched = 0.3;      // per VC a stronger enemy in contact has over the unit
  double exposure = 1.5;        // artillery or general in contact with an enemy
  double gun_contact = 2;       // exposure multiple per enemy in contact with a gun
  double general_contact = 2;   // exposure multiple per enemy in contact with a general
  double general_reach = 0.5;   // ... per step a general stands inside general_safe_steps
  int general_safe_steps = 4;   // steps from the enemy at which a general is safe
  double command = 0.3;         // per hex outside the general's radius
  double guns_on_target = 0.2;  // per enemy in range and sight of a gun
  // --- what units and losses are worth (agents/board_facts.h) ---
  double general_worth = 2.0;    // a VC of a general lost, in VC points
  double artillery_worth = 1.5;  // a VC of artillery lost
  double elimination = 2;        // added when a unit is eliminated
  double morale_worth = 0.25;    // a point of MO in the evaluation
  // --- action scores (agents/action_scores.cpp) ---
  double attacker_test = 0.7;  // cost of the attacker failing its morale test
  // What a test result is worth to the side that inflicts it, in retreats (a Morne Plaine
  // failure is 1); the variant modules' results (docs/variants.md):
  double halt_result = 0.3;         // the unit may not move next turn
  double rout_result = 2.5;         // out of the fight until it rallies, running its full allowance
  double routed_share = 0.5;        // share of a routed unit's worth the evaluation still counts
  double fire_vc_share = 0.5;       // share of fire loss points that fall on VC
  double foot_gun_fire_cost = 0.2;  // movement a foot gun gives up by firing (F-GEN-6)
  double horse_gun_fire_cost = 0.1;  // ... a horse gun
  double charge_gain = 1.5;          // a charge target (not a gun) failing its test
  double charge_cost = 1.0;          // the MO a charge costs when the target holds (MV-CHG-5)
  double step_cost = 0.05;           // per movement point of a step
  double marsh_risk = 0.25;          // per d4 face that leaves a unit stuck in a marsh
  double sidestep = 0.1;             // a step round a friend blocking the shorter way
  // --- the evaluation (agents/position_value.cpp) ---
  double value_scale = 0;          // evaluation = tanh(score difference / value_scale); 0: auto,
  double auto_scale_per_unit = 2;  // ... this much per unit other than generals
  double initiative = 0.5;         // share of the side to move's available attacks it is credited
};

}  // namespace morne::agents
