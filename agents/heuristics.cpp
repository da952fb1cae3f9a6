#include "agents/heuristics.h"

#include <algorithm>
#include <cmath>

#include "env/rules.h"
#include "env/tactics.h"
#include "mcts/tree_search.h"

namespace morne::agents {

using env::CellId;
using env::GameState;
using env::Terrain;

namespace {

// Whether side `side` holds objective o now, not counting unit `ignore` (V-HEX-1..3).
bool holds(const GameState& s, const env::Objective& o, int side, int ignore) {
  if (o.passing) {
    const int t = s.sc().trackedIndex(o.cell);
    return t >= 0 && s.owner[static_cast<size_t>(t)] == side;
  }
  const int v = s.unitAt(o.cell);
  return v >= 0 && v != ignore && s.sideOf(v) == side && !env::isGeneral(s.typeOf(v));
}

// Enemy units in contact with `cell` (M-CONTACT-1); *strongest gets the highest enemy VC.
int enemiesInContact(const GameState& s, CellId cell, int side, int* strongest) {
  const env::Scenario& sc = s.sc();
  int n = 0;
  for (int d = 0; d < env::kNumDirections; ++d) {
    const env::Hexside& h = sc.side(cell, d);
    if (h.neighbor == env::kNoCell || !h.contact) continue;
    const int v = s.unitAt(h.neighbor);
    if (v < 0 || s.sideOf(v) == side) continue;
    ++n;
    *strongest = std::max(*strongest, static_cast<int>(s.unit(v).vc));
  }
  return n;
}

// Probability that a morale test against `mo` fails with `modifier` added to the d9 (C-MOR-1,
// MV-CHG-5); MO 0 always fails.
double failProbability(int mo, int modifier) {
  if (mo == 0) return 1.0;
  int fails = 0;
  for (int d9 = 1; d9 <= 9; ++d9) fails += d9 + modifier > mo;
  return fails / 9.0;
}

// Whether unit u stands on an occupied objective its side values (it holds it by being there).
bool garrisons(const GameState& s, int u) {
  for (const env::Objective& o : s.sc().objectives()) {
    if (!o.passing && o.cell == s.unit(u).cell && o.vp[static_cast<size_t>(s.sideOf(u))] > 0)
      return true;
  }
  return false;
}

// How much a loss of one VC of unit u hurts its side: guns and generals count more.
double unitWorth(const GameState& s, int u) {
  if (env::isGeneral(s.typeOf(u))) return 2.0;
  if (env::isArtillery(s.typeOf(u))) return 1.5;
  return 1.0;
}

// The most VP an objective on `cell` is worth to `side` (0 if none).
int objectiveVpAt(const GameState& s, CellId cell, int side) {
  int vp = 0;
  for (const env::Objective& o : s.sc().objectives()) {
    if (o.cell == cell) vp = std::max(vp, o.vp[static_cast<size_t>(side)]);
  }
  return vp;
}

}  // namespace

const GoalMap& Heuristics::goals(const env::Scenario& sc) {
  if (!goals_ || goals_->scenario() != &sc) goals_ = std::make_unique<GoalMap>(sc);
  return *goals_;
}

double Heuristics::objectiveStake(const GameState& s, int objective, int side) const {
  const env::Objective& o = s.sc().objectives()[static_cast<size_t>(objective)];
  const int enemy = env::otherSide(side);
  const double deny = holds(s, o, enemy, -1) ? o.vp[static_cast<size_t>(enemy)] : 0;
  return w_.objective * 0.5 * (o.vp[static_cast<size_t>(side)] + deny);
}

double Heuristics::turnsTo(const GameState& s, int u, int objective, CellId from) {
  const int mp = goals(s.sc()).distance(s.sc().moveClass(u), objective, from);
  if (mp == GoalMap::kUnreachable) return 1e9;
  return static_cast<double>(mp) / std::max(1, s.sc().unit(u).ma);
}

int Heuristics::enemyDistance(const GameState& s, int side, CellId cell) {
  refresh(s);
  return near_[static_cast<size_t>(env::otherSide(side))][static_cast<size_t>(cell)];
}

const std::array<int8_t, env::kMaxUnits>& Heuristics::goalPlan(const GameState& s) {
  refresh(s);
  return plan_;
}

void Heuristics::stepsField(const GameState& s, int side, bool guns_only,
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

void Heuristics::refresh(const GameState& s) {
  if (cache_hash_ == s.hash && cache_scenario_ == s.scenario) return;
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
      room[static_cast<size_t>(i)] = !o.passing && holds(s, o, env::otherSide(side), -1) ? 3 : 1;
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

double Heuristics::positionValue(const GameState& s, int u, CellId cell) {
  const env::Scenario& sc = s.sc();
  const int side = s.sideOf(u);
  const env::UnitType type = s.typeOf(u);
  const env::UnitInfo& info = sc.unit(u);
  double v = 0;

  if (env::isGeneral(type)) {
    // Stay near the corps' units (CMD-2).
    int n = 0;
    double dist = 0;
    for (int x = 0; x < s.num_units; ++x) {
      if (x == u || !s.onMap(x) || sc.unit(x).corps != info.corps) continue;
      dist += sc.distance(cell, s.unit(x).cell);
      ++n;
    }
    if (n) v -= w_.command * std::max(0.0, dist / n - info.radius + 1);
  } else {
    // Objectives: hold an occupied one or take a passing one here, or head for the one the goal
    // plan gives the unit.
    const std::array<int8_t, env::kMaxUnits>& plan = goalPlan(s);
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
          v += w_.objective * (vp + 1);
        else if (!holds(s, o, side, u))
          v += w_.objective * vp;
      } else if (plan[static_cast<size_t>(u)] == static_cast<int>(i)) {
        goal = objectiveStake(s, static_cast<int>(i), side) -
               w_.approach * turnsTo(s, u, static_cast<int>(i), cell);
      }
    }
    // Enemy guns are worth hunting down: a gun lost costs its side dearly (unitWorth).
    const int to_gun = guns_[static_cast<size_t>(env::otherSide(side))][static_cast<size_t>(cell)];
    const double gun_turns = static_cast<double>(to_gun) / std::max(1, info.ma);
    if (!env::isArtillery(type) && to_gun != kFar && gun_turns <= turns_left) {
      goal = std::max(goal, 0.5 * (1.5 * 2 + 2) - w_.approach * gun_turns);
    }
    if (goal > -1e9) {
      v += goal;
    } else {
      // Nothing left to take: close in on the enemy.
      v -= w_.approach * std::min(std::max(1, enemyDistance(s, side, cell)), 20) /
           std::max(1, info.ma);
    }
    // Command radius (CMD-3).
    const int general = info.corps < 0 ? -1 : sc.corps()[static_cast<size_t>(info.corps)].general;
    if (general >= 0 && s.onMap(general)) {
      v -= w_.command *
           std::max(0, sc.distance(cell, s.unit(general).cell) - sc.unit(general).radius);
    }
  }

  int strongest = 0;
  const int contacts = enemiesInContact(s, cell, side, &strongest);
  if (env::isArtillery(type)) {
    v -= w_.exposure * 2 * contacts;
    int targets = 0;
    for (int x = 0; x < s.num_units && info.range > 0; ++x) {
      if (!s.onMap(x) || s.sideOf(x) == side) continue;
      const int d = sc.distance(cell, s.unit(x).cell);
      if (d >= 1 && d <= info.range && sc.visible(cell, s.unit(x).cell)) ++targets;
    }
    v += w_.guns_on_target * targets;
  } else if (env::isGeneral(type)) {
    // Out of reach of the enemy: a general in contact, or within a move of it, is a target.
    v -= w_.exposure * (2 * contacts + 0.5 * std::max(0, 4 - enemyDistance(s, side, cell)));
  } else {
    // Near the enemy: cover, and for units that are not heading for an objective a line
    // (friends alongside support the defence, C-SUP-2).
    if (enemyDistance(s, side, cell) <= 3) {
      if (env::isInfantry(type)) v += w_.cover * env::advanceTerrainRank(sc, cell, true);
      int friends = 0;
      if (goalPlan(s)[static_cast<size_t>(u)] < 0)
        for (int d = 0; d < env::kNumDirections; ++d) {
          const CellId n = sc.neighbor(cell, d);
          const int x = n == env::kNoCell ? -1 : s.unitAt(n);
          friends += x >= 0 && x != u && s.sideOf(x) == side && !env::isGeneral(s.typeOf(x));
        }
      v += w_.line * std::min(friends, 2);
    }
    if (contacts > 0 && strongest > s.unit(u).vc) v -= 0.3 * (strongest - s.unit(u).vc);
  }
  return v;
}

double Heuristics::attackValue(const GameState& s, int attacker, int defender) {
  const env::CombatOdds odds = env::combatOdds(s, attacker, defender);
  const int vc_a = s.unit(attacker).vc;
  const int vc_d = s.unit(defender).vc;
  const bool general_a = env::isGeneral(s.typeOf(attacker));
  const bool general_d = env::isGeneral(s.typeOf(defender));
  const double stake = w_.objective * objectiveVpAt(s, s.unit(defender).cell, s.sideOf(attacker));
  double total = 0;
  for (int d6 = 1; d6 <= 6; ++d6) {
    const int die = std::clamp(d6 + odds.dieModifier(), 0, env::kCrtRows - 1);
    const env::CrtCell cell =
        s.sc().crt()[static_cast<size_t>(die)][static_cast<size_t>(odds.column + 7)];
    const int loss_d = std::min<int>(cell.defender_loss, vc_d);
    const int loss_a = std::min<int>(cell.attacker_loss, vc_a);
    const double fail_d = cell.defender_test && loss_d < vc_d && !general_d
                              ? failProbability(s.unit(defender).mo, 0)
                              : 0;
    const double fail_a = cell.attacker_test && loss_a < vc_a && !general_a
                              ? failProbability(s.unit(attacker).mo, 0)
                              : 0;
    const double dislodged = loss_d >= vc_d ? 1.0 : fail_d;
    total += unitWorth(s, defender) * (loss_d + (loss_d >= vc_d ? 2 : 0)) + fail_d +
             0.5 * stake * dislodged -
             (unitWorth(s, attacker) * (loss_a + (loss_a >= vc_a ? 2 : 0)) + 0.7 * fail_a);
  }
  return total / 6;
}

double Heuristics::fireValue(const GameState& s, env::Action a) {
  const int gun = s.unitAt(a.cell);
  const int target = env::fireTarget(s, a);
  double expected = 0;
  for (int die = 1; die <= 4; ++die) {
    const int losses = env::fireLosses(s, gun, target, false, die);
    expected += losses;
    if (losses >= s.unit(target).vc) expected += 2;  // an elimination
  }
  // Firing costs movement (F-GEN-6): foot artillery more than horse.
  const double moving_cost = s.typeOf(gun) == env::UnitType::kFootArtillery ? 0.2 : 0.1;
  return unitWorth(s, target) * expected / 4 / 2 - moving_cost;
}

double Heuristics::chargeValue(const GameState& s, env::Action a) {
  const int cavalry = s.unitAt(a.cell);
  const int target = s.unitAt(s.sc().neighbor(a.cell, a.arg));
  const double p = failProbability(s.unit(target).mo, env::chargeModifier(s, cavalry, target));
  const bool gun = env::isArtillery(s.typeOf(target));
  const double gain = gun ? 1.5 * s.unit(target).vc + 2 : 1.5;
  double risk = 1.0;  // the morale the charge costs when the target holds (MV-CHG-5)
  if (gun) {
    // A gun that holds fires at the charging cavalry (F-REACT-2, F-REACT-6): about half the loss
    // points fall on VC; losing all of them eliminates it.
    const int vc = s.unit(cavalry).vc;
    for (int die = 1; die <= 4; ++die) {
      const double vc_loss =
          std::min<double>(vc, env::fireLosses(s, target, cavalry, true, die) / 2.0);
      risk += (vc_loss + (vc_loss >= vc ? 2 : 0)) / 4.0;
    }
  }
  return p * gain - (1 - p) * risk;
}

bool Heuristics::sidestepsAFriend(const GameState& s, int u, CellId from, CellId to) {
  const int goal = goalPlan(s)[static_cast<size_t>(u)];
  if (goal < 0) return false;
  const GoalMap& g = goals(s.sc());
  const env::MoveClass mc = s.sc().moveClass(u);
  const int here = g.distance(mc, goal, from);
  if (here == 0 || g.distance(mc, goal, to) != here) return false;
  for (int d = 0; d < env::kNumDirections; ++d) {
    const CellId n = s.sc().neighbor(from, d);
    const int x = n == env::kNoCell ? -1 : s.unitAt(n);
    if (x >= 0 && s.sideOf(x) == s.sideOf(u) && g.distance(mc, goal, n) < here) return true;
  }
  return false;
}

double Heuristics::scoreAction(const GameState& s, env::Action a) {
  const env::Scenario& sc = s.sc();
  switch (a.kind) {
    case env::ActionKind::kEnd:
    case env::ActionKind::kHold:
      return 0;
    case env::ActionKind::kPlace:
      return positionValue(s, env::nextUnitToPlace(s), a.cell);
    case env::ActionKind::kMove: {
      const int u = s.unitAt(a.cell);
      const CellId to = sc.neighbor(a.cell, a.arg);
      const int cost = env::stepCost(s, u, a.arg, nullptr);
      double gain = positionValue(s, u, to) - positionValue(s, u, a.cell) - 0.05 * cost;
      if (sc.terrain(to) == Terrain::kMarsh) gain -= 0.25 * env::marshStuckThreshold(s, u);
      if (sidestepsAFriend(s, u, a.cell, to)) gain += 0.1;
      return gain;
    }
    case env::ActionKind::kCharge:
      return chargeValue(s, a);
    case env::ActionKind::kAttack:
      return attackValue(s, s.unitAt(a.cell), env::attackTarget(s, a));
    case env::ActionKind::kFire:
      return fireValue(s, a);
  }
  return 0;
}

size_t Heuristics::scoreAll(const GameState& s, std::span<const env::Action> legal,
                            std::span<double> scores) {
  size_t best = 0;
  for (size_t i = 0; i < legal.size(); ++i) {
    scores[i] = scoreAction(s, legal[i]);
    if (scores[i] > scores[best]) best = i;
  }
  return best;
}

double Heuristics::valueScale(const env::Scenario& sc) {
  if (w_.value_scale > 0) return w_.value_scale;
  int units = 0;
  for (int u = 0; u < sc.numUnits(); ++u) units += !env::isGeneral(sc.unit(u).type);
  return 2.0 * std::max(1, units);
}

double Heuristics::evaluate(const GameState& s) {
  if (s.isTerminal()) return mcts::terminalValue(s);
  // The same units as the action scores: strength (VC by unit worth, a quarter point of MO),
  // position values, and the victory points held now.
  const env::GameResult r = env::gameResult(s);
  double score = w_.objective * (r.vp[0] - r.vp[1]);
  for (int u = 0; u < s.num_units; ++u) {
    if (!s.onMap(u)) continue;
    const double sign = s.sideOf(u) == 0 ? 1.0 : -1.0;
    score += sign * (unitWorth(s, u) * s.unit(u).vc + 0.25 * s.unit(u).mo +
                     positionValue(s, u, s.unit(u).cell));
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
