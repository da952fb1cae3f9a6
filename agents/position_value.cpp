// The value of a unit standing on a hex, and the static evaluation of a position
// (agents/heuristics.h).

#include <algorithm>
#include <cmath>

#include "agents/board_facts.h"
#include "agents/heuristics.h"
#include "env/rules.h"
#include "env/tactics.h"
#include "mcts/tree_search.h"

namespace morne::agents {

using env::CellId;
using env::GameState;

double Heuristics::positionValue(const GameState& s, int u, CellId cell) {
  plan_.refresh(s);
  double v = 0;
  if (env::isGeneral(s.typeOf(u))) {
    addCommandValue(s, u, cell, v);
  } else {
    addGoalValue(s, u, cell, v);
  }
  addGroundValue(s, u, cell, v);
  return v;
}

// A general: stay near the corps' units (CMD-2).
void Heuristics::addCommandValue(const GameState& s, int u, CellId cell, double& v) const {
  const env::Scenario& sc = s.sc();
  const env::UnitInfo& info = sc.unit(u);
  int n = 0;
  double dist = 0;
  for (int x = 0; x < s.num_units; ++x) {
    if (x == u || !s.onMap(x) || sc.unit(x).corps != info.corps) continue;
    dist += sc.distance(cell, s.unit(x).cell);
    ++n;
  }
  if (n) v -= w_.command * std::max(0.0, dist / n - info.radius + 1);
}

// Objectives: hold an occupied one or take a passing one here, or head for the one the goal
// plan gives the unit, or for an enemy gun; else close in on the enemy. And stay within the
// general's radius (CMD-3).
void Heuristics::addGoalValue(const GameState& s, int u, CellId cell, double& v) {
  const env::Scenario& sc = s.sc();
  const int side = s.sideOf(u);
  const env::UnitInfo& info = sc.unit(u);
  const double turns_left = sc.turns() - s.turn + 1;
  double goal = -1e9;
  for (size_t i = 0; i < sc.objectives().size(); ++i) {
    const env::Objective& o = sc.objectives()[i];
    const int vp = o.vp[static_cast<size_t>(side)];
    if (vp <= 0) continue;
    if (cell == o.cell) {
      // Taking a passing hex scores once; an occupied hex is worth holding a little more than
      // it is worth taking, so that a garrison stays put.
      if (!o.passing)
        v += w_.objective * (vp + w_.garrison_bonus);
      else if (!holds(s, o, side, u))
        v += w_.objective * vp;
    } else if (plan_.goalOf(u) == static_cast<int>(i)) {
      goal = plan_.objectiveStake(s, static_cast<int>(i), side) -
             w_.approach * plan_.turnsTo(s, u, static_cast<int>(i), cell);
    }
  }
  // Enemy guns are worth hunting down: a gun lost costs its side dearly (unitWorth).
  const int to_gun = plan_.enemyGunDistance(side, cell);
  const double gun_turns = static_cast<double>(to_gun) / std::max(1, info.ma);
  if (!env::isArtillery(s.typeOf(u)) && to_gun != GoalPlan::kFar && gun_turns <= turns_left) {
    goal = std::max(goal, w_.gun_hunt - w_.approach * gun_turns);
  }
  if (goal > -1e9) {
    v += goal;
  } else {
    // Nothing left to take: close in on the enemy.
    v -= w_.approach * std::min(std::max(1, plan_.enemyDistance(side, cell)), w_.close_in_steps) /
         std::max(1, info.ma);
  }
  const int general = info.corps < 0 ? -1 : sc.corps()[static_cast<size_t>(info.corps)].general;
  if (general >= 0 && s.onMap(general)) {
    v -=
        w_.command * std::max(0, sc.distance(cell, s.unit(general).cell) - sc.unit(general).radius);
  }
}

// The ground near the enemy: guns want targets and no contact, generals stay out of reach,
// other units want cover, friends alongside and no stronger enemy in contact.
void Heuristics::addGroundValue(const GameState& s, int u, CellId cell, double& v) const {
  const env::Scenario& sc = s.sc();
  const int side = s.sideOf(u);
  const env::UnitType type = s.typeOf(u);
  const env::UnitInfo& info = sc.unit(u);
  int strongest = 0;
  const int contacts = enemiesInContact(s, cell, side, &strongest);
  if (env::isArtillery(type)) {
    v -= w_.exposure * w_.gun_contact * contacts;
    int targets = 0;
    for (int x = 0; x < s.num_units && info.range > 0; ++x) {
      if (!s.onMap(x) || s.sideOf(x) == side) continue;
      const int d = sc.distance(cell, s.unit(x).cell);
      if (d >= 1 && d <= info.range && sc.visible(cell, s.unit(x).cell)) ++targets;
    }
    v += w_.guns_on_target * targets;
  } else if (env::isGeneral(type)) {
    // Out of reach of the enemy: a general in contact, or within a move of it, is a target.
    v -= w_.exposure *
         (w_.general_contact * contacts +
          w_.general_reach * std::max(0, w_.general_safe_steps - plan_.enemyDistance(side, cell)));
  } else {
    // Near the enemy: cover, and for units that are not heading for an objective a line
    // (friends alongside support the defence, C-SUP-2).
    if (plan_.enemyDistance(side, cell) <= w_.near_enemy_steps) {
      if (env::isInfantry(type)) v += w_.cover * env::advanceTerrainRank(sc, cell, true);
      int friends = 0;
      if (plan_.goalOf(u) < 0)
        for (int d = 0; d < env::kNumDirections; ++d) {
          const CellId n = sc.neighbor(cell, d);
          const int x = n == env::kNoCell ? -1 : s.unitAt(n);
          friends += x >= 0 && x != u && s.sideOf(x) == side && !env::isGeneral(s.typeOf(x));
        }
      v += w_.line * std::min(friends, w_.line_friends);
    }
    if (contacts > 0 && strongest > s.unit(u).vc) v -= w_.outmatched * (strongest - s.unit(u).vc);
  }
}

double Heuristics::valueScale(const env::Scenario& sc) const {
  if (w_.value_scale > 0) return w_.value_scale;
  int units = 0;
  for (int u = 0; u < sc.numUnits(); ++u) units += !env::isGeneral(sc.unit(u).type);
  return w_.auto_scale_per_unit * std::max(1, units);
}

double Heuristics::evaluate(const GameState& s) {
  if (s.isTerminal()) return mcts::terminalValue(s);
  // The same units as the action scores: strength (VC by unit worth, a quarter point of MO),
  // position values, and the victory points held now.
  const env::GameResult r = env::gameResult(s);
  double score = w_.objective * r.marginHalf() / 2.0;
  for (int u = 0; u < s.num_units; ++u) {
    if (!s.onMap(u)) continue;
    const double sign = s.sideOf(u) == 0 ? 1.0 : -1.0;
    const double worth = unitWorth(s, u, w_) * s.unit(u).vc + w_.morale_worth * s.unit(u).mo +
                         positionValue(s, u, s.unit(u).cell);
    score += sign * (s.routed(u) ? w_.routed_share * worth : worth);  // docs/variants.md
  }
  // The attacks the side to move can deliver this turn (before its combat phase): for each of
  // its units, the best expected result against an adjacent enemy, supports included.
  if (s.phase == env::Phase::kBombardment || s.phase == env::Phase::kMovement ||
      s.phase == env::Phase::kCombat) {
    const int side = s.side;
    double threat = 0;
    for (int u = 0; u < s.num_units; ++u) {
      if (!s.onMap(u) || s.sideOf(u) != side) continue;
      double best = 0;
      for (int d = 0; d < env::kNumDirections; ++d) {
        const env::Hexside& h = s.sc().side(s.unit(u).cell, d);
        if (h.neighbor == env::kNoCell || !h.contact) continue;
        const int v = s.unitAt(h.neighbor);
        if (v >= 0 && s.sideOf(v) != side && env::canAttack(s, u, v))
          best = std::max(best, attackValue(s, u, v));
      }
      threat += best;
    }
    score += (side == 0 ? 1 : -1) * w_.initiative * threat;
  }
  return std::tanh(score / valueScale(s.sc()));
}

}  // namespace morne::agents
