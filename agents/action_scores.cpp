// The scores of actions: attacks by their expected result, fire by expected losses, charges by
// the odds of their test, steps by the position value gained (agents/heuristics.h).

#include <algorithm>

#include "agents/board_facts.h"
#include "agents/heuristics.h"
#include "env/rules.h"
#include "env/tactics.h"

namespace morne::agents {

using env::CellId;
using env::GameState;
using env::Terrain;

double Heuristics::attackValue(const GameState& s, int attacker, int defender) {
  const env::CombatOdds odds = env::combatOdds(s, attacker, defender);
  const int vc_a = s.unit(attacker).vc;
  const int vc_d = s.unit(defender).vc;
  const bool general_a = env::isGeneral(s.typeOf(attacker));
  const bool general_d = env::isGeneral(s.typeOf(defender));
  const double stake = w_.objective * objectiveVpAt(s, s.unit(defender).cell, s.sideOf(attacker));
  // The odds of each side's morale test do not depend on the die: computed once.
  const env::MoraleOdds odds_d =
      general_d ? env::MoraleOdds{} : env::moraleTestOdds(s, defender, attacker, 0, false);
  const env::MoraleOdds odds_a =
      general_a ? env::MoraleOdds{} : env::moraleTestOdds(s, attacker, defender, 0, false);
  const double worth_d = general_d ? 0 : testResultWorth(s, defender, odds_d);
  const double worth_a = general_a ? 0 : testResultWorth(s, attacker, odds_a);
  double total = 0;
  for (int d6 = 1; d6 <= 6; ++d6) {
    const int die = std::clamp(d6 + odds.dieModifier(), 0, env::kCrtRows - 1);
    const env::CrtCell cell =
        s.sc().crt()[static_cast<size_t>(die)][static_cast<size_t>(odds.column + 7)];
    const int loss_d = std::min<int>(cell.defender_loss, vc_d);
    const int loss_a = std::min<int>(cell.attacker_loss, vc_a);
    const bool test_d = cell.defender_test && loss_d < vc_d && !general_d;
    const bool test_a = cell.attacker_test && loss_a < vc_a && !general_a;
    const double fail_d = test_d ? worth_d : 0;
    const double fail_a = test_a ? worth_a : 0;
    const double dislodged = loss_d >= vc_d ? 1.0 : (test_d ? odds_d.failure() : 0);
    total += unitWorth(s, defender, w_) * (loss_d + (loss_d >= vc_d ? w_.elimination : 0)) +
             fail_d + w_.stake_share * stake * dislodged -
             (unitWorth(s, attacker, w_) * (loss_a + (loss_a >= vc_a ? w_.elimination : 0)) +
              w_.attacker_test * fail_a);
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
    if (losses >= s.unit(target).vc) expected += w_.elimination;
  }
  // Firing costs movement (F-GEN-6): foot artillery more than horse.
  const double moving_cost = s.typeOf(gun) == env::UnitType::kFootArtillery
                                 ? w_.foot_gun_fire_cost
                                 : w_.horse_gun_fire_cost;
  return unitWorth(s, target, w_) * expected / 4 * w_.fire_vc_share - moving_cost;
}

double Heuristics::chargeValue(const GameState& s, env::Action a) {
  const int cavalry = s.unitAt(a.cell);
  const int target = s.unitAt(s.sc().neighbor(a.cell, a.arg));
  const env::MoraleOdds odds =
      env::moraleTestOdds(s, target, cavalry, env::chargeModifier(s, cavalry, target), true);
  const double p = odds.failure();
  const bool gun = env::isArtillery(s.typeOf(target));
  const double gain =
      gun ? w_.artillery_worth * s.unit(target).vc + w_.elimination : w_.charge_gain;
  double risk = w_.charge_cost;  // the morale the charge costs when the target holds
  if (gun) {
    // A gun that holds fires at the charging cavalry (F-REACT-2, F-REACT-6): about half the loss
    // points fall on VC; losing all of them eliminates it.
    const int vc = s.unit(cavalry).vc;
    for (int die = 1; die <= 4; ++die) {
      const double vc_loss =
          std::min<double>(vc, env::fireLosses(s, target, cavalry, true, die) * w_.fire_vc_share);
      risk += (vc_loss + (vc_loss >= vc ? w_.elimination : 0)) / 4.0;
    }
  }
  if (gun || s.sc().rules().failed_test == env::FailedTest::kMp) return p * gain - (1 - p) * risk;
  // Under a variant module the failure is worth what it does (a rout more than a retreat).
  return w_.charge_gain * testResultWorth(s, target, odds) - (1 - p) * risk;
}

double Heuristics::testResultWorth(const GameState& s, int unit,
                                   const env::MoraleOdds& odds) const {
  using O = env::MoraleOutcome;
  if (s.sc().rules().failed_test == env::FailedTest::kMp) {
    // Every failure is one retreat (C-RET-*); a graded halt still holds the unit.
    return odds.failure() + w_.halt_result * odds.of(O::kHalt);
  }
  const double halt = w_.halt_result * odds.of(O::kHalt);
  if (s.sc().rules().failed_test == env::FailedTest::kAncientRout) {
    // Every failure is a rout of the full allowance.
    return halt + w_.rout_result * (odds.of(O::kRout) + odds.of(O::kRetreat) + odds.of(O::kFlight));
  }
  // Graded: a retreat is one hex, a rout a rout, a flight as good as an elimination.
  const double flight_worth = w_.elimination + unitWorth(s, unit, w_) * s.unit(unit).vc;
  return odds.of(O::kRetreat) + halt + w_.rout_result * odds.of(O::kRout) +
         flight_worth * odds.of(O::kFlight);
}

bool Heuristics::sidestepsAFriend(const GameState& s, int u, CellId from, CellId to) {
  plan_.refresh(s);
  const int goal = plan_.goalOf(u);
  if (goal < 0) return false;
  const GoalMap& g = plan_.goals(s.sc());
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
      double gain = positionValue(s, u, to) - positionValue(s, u, a.cell) - w_.step_cost * cost;
      if (sc.terrain(to) == Terrain::kMarsh) gain -= w_.marsh_risk * env::marshStuckThreshold(s, u);
      if (sidestepsAFriend(s, u, a.cell, to)) gain += w_.sidestep;
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

}  // namespace morne::agents
