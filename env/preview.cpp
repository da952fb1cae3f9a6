#include "env/preview.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "env/control.h"
#include "env/morale_model.h"
#include "env/rules.h"
#include "env/tactics.h"

namespace morne::env {

namespace {

Probability times(Probability p, uint64_t num, uint64_t den) {
  p.num *= num;
  p.den *= den;
  const uint64_t g = std::gcd(p.num, p.den);
  return {p.num / g, p.den / g};
}

Probability plus(Probability a, Probability b) {
  const uint64_t den = std::lcm(a.den, b.den);
  Probability p{a.num * (den / a.den) + b.num * (den / b.den), den};
  const uint64_t g = std::gcd(p.num, p.den);
  return {p.num / g, p.den / g};
}

UnitOutcome outcomeOf(const GameState& s, int u, CellId start, CellId enemy_start) {
  UnitOutcome o;
  o.unit = u;
  o.vc = s.unit(u).vc;
  o.mo = s.unit(u).mo;
  o.cell = s.unit(u).cell;
  o.advanced = o.cell != kNoCell && o.cell == enemy_start;
  o.routed = s.routed(u);
  o.pursuing = s.pursuing(u);
  o.halted = s.hasMorale(u, morale_bit::kHaltHeld);
  o.retreated = o.cell != kNoCell && o.cell != start && !o.advanced && !o.pursuing;
  o.victorious = s.has(u, unit_flag::kVictorious);
  return o;
}

// Whether `p` is a unit's test after the fire at it (V-MOR-8, switch ancient_tests).
bool isTestAfterFire(const Pending& p) {
  return p.kind == ChanceKind::kMoraleCheck &&
         p.flags == static_cast<uint8_t>(TestOccasion::kAfterFire);
}

// Resolves every chance event on the way while `pending(s)` holds, adding the end states
// (summarised by `summary`) with their exact probabilities into `out`.
template <typename PendingFn, typename SummaryFn>
void enumerate(const GameState& s, Probability p, PendingFn pending, SummaryFn summary,
               std::map<std::vector<UnitOutcome>, Probability>& out) {
  if (!s.isChanceNode() || !pending(s)) {
    auto key = summary(s);
    auto it = out.find(key);
    out[key] = it == out.end() ? p : plus(it->second, p);
    return;
  }
  ChanceList outcomes;
  chanceOutcomes(s, outcomes);
  for (const ChanceOutcome& o : outcomes) {
    GameState child = s;
    resolvePendingChance(child, o.value, nullptr);
    enumerate(child, times(p, static_cast<uint64_t>(o.num), static_cast<uint64_t>(o.den)), pending,
              summary, out);
  }
}

std::vector<Outcome> sorted(const std::map<std::vector<UnitOutcome>, Probability>& found) {
  std::vector<Outcome> out;
  for (const auto& [units, p] : found) out.push_back({units, p});
  std::stable_sort(out.begin(), out.end(), [](const Outcome& a, const Outcome& b) {
    return a.probability.value() > b.probability.value();
  });
  return out;
}

// The combat's dice followed through every outcome, the pursuer's free attack included
// (V-PUR-4), noting the enemy zones of control each principal retreats into and the morale
// tests taken and failed on the way.
void followCombat(const GameState& s, Probability p, std::array<int, 2> units,
                  std::array<CellId, 2> starts, std::array<int, 2> zocs, CombatPreview& out,
                  std::map<std::vector<UnitOutcome>, Probability>& found) {
  const bool poor_odds_test = s.pending.kind == ChanceKind::kMoraleCheck &&
                              s.pending.flags == static_cast<uint8_t>(TestOccasion::kPoorOdds);
  if (!s.isChanceNode() ||
      (!s.combat.active() && s.pending.kind != ChanceKind::kFreeAttack && !poor_odds_test)) {
    std::vector<UnitOutcome> key;
    for (size_t i = 0; i < 2; ++i) {
      key.push_back(outcomeOf(s, units[i], starts[i], starts[1 - i]));
      key.back().retreat_zocs = zocs[i];
    }
    auto it = found.find(key);
    found[key] = it == found.end() ? p : plus(it->second, p);
    return;
  }
  ChanceList outcomes;
  chanceOutcomes(s, outcomes);
  for (const ChanceOutcome& o : outcomes) {
    GameState child = s;
    EventLog log;
    resolvePendingChance(child, o.value, &log);
    const Probability q = times(p, static_cast<uint64_t>(o.num), static_cast<uint64_t>(o.den));
    std::array<int, 2> z = zocs;
    for (const Event& e : log) {
      for (size_t i = 0; i < 2; ++i) {
        if (e.unit != units[i]) continue;
        if (e.type == EventType::kRetreat) z[i] += e.a;
        if (e.type == EventType::kAttackRefused) out.attack_refused = plus(out.attack_refused, q);
        if (e.type == EventType::kMoraleTest ||
            (e.type == EventType::kMoraleResult && s.combat.active())) {
          const bool failed = e.type == EventType::kMoraleTest
                                  ? e.c != 0
                                  : e.c >= static_cast<int>(MoraleOutcome::kRetreat);
          auto& odds = out.morale_tests[i];
          odds.tested = plus(odds.tested, q);
          if (failed) odds.failed = plus(odds.failed, q);
        }
      }
    }
    followCombat(child, q, units, starts, z, out, found);
  }
}

}  // namespace

FirePreview previewFire(const GameState& s, Action a) {
  FirePreview p;
  p.gun = s.unitAt(a.cell);
  p.target = fireTarget(s, a);
  p.vt = s.sc().unit(p.gun).vt;
  p.distance = s.sc().distance(a.cell, s.unit(p.target).cell);
  p.modifiers = fireModifiers(s, p.gun, p.target, false);
  for (int die = 1; die <= 4; ++die)
    p.losses_by_die.push_back(fireLosses(s, p.gun, p.target, false, die));
  GameState after = s;
  applyAction(after, a);
  const CellId start = s.unit(p.target).cell;
  std::map<std::vector<UnitOutcome>, Probability> found;
  enumerate(
      after, {1, 1},
      [](const GameState& x) {
        return x.pending.kind == ChanceKind::kFireDie || x.pending.kind == ChanceKind::kFireCoin ||
               isTestAfterFire(x.pending);
      },
      [&](const GameState& x) {
        return std::vector<UnitOutcome>{outcomeOf(x, p.target, start, kNoCell)};
      },
      found);
  p.outcomes = sorted(found);
  return p;
}

CombatPreview previewCombat(const GameState& s, Action a) {
  CombatPreview p;
  const int attacker = s.unitAt(a.cell);
  const int defender = attackTarget(s, a);
  p.odds = combatOdds(s, attacker, defender);
  for (int d6 = 1; d6 <= 6; ++d6) {
    const int die = std::clamp(d6 + p.odds.dieModifier(), 0, 7);
    p.dice.push_back(
        {d6, die, s.sc().crt()[static_cast<size_t>(die)][static_cast<size_t>(p.odds.column + 7)]});
  }
  GameState after = s;
  applyAction(after, a);
  std::map<std::vector<UnitOutcome>, Probability> found;
  followCombat(after, {1, 1}, {attacker, defender}, {s.unit(attacker).cell, s.unit(defender).cell},
               {0, 0}, p, found);
  p.outcomes = sorted(found);
  return p;
}

namespace {

// The step's dice, followed through every outcome: marsh test, reaction fire dice and coins;
// a charge offered to the mover is declined ("hold") so that the fire it defers is shown.
void followStep(const GameState& s, Probability p, int mover, CellId start, StepPreview& out,
                std::map<std::vector<UnitOutcome>, Probability>& found) {
  if (s.charge_window == mover && !s.isChanceNode()) {
    out.charge_offered = true;
    GameState held = s;
    applyAction(held, Action::hold());
    followStep(held, p, mover, start, out, found);
    return;
  }
  const ChanceKind k = s.pending.kind;
  const bool fire_at_mover =
      (k == ChanceKind::kFireDie || k == ChanceKind::kFireCoin) && s.pending.target == mover;
  const bool mover_tests = isTestAfterFire(s.pending) && s.pending.unit == mover;
  if (k != ChanceKind::kMarshTest && !fire_at_mover && !mover_tests) {
    const std::vector<UnitOutcome> key{outcomeOf(s, mover, start, kNoCell)};
    auto it = found.find(key);
    found[key] = it == found.end() ? p : plus(it->second, p);
    return;
  }
  if (k == ChanceKind::kFireDie) {
    const int gun = s.pending.unit;
    auto g = std::find_if(out.guns.begin(), out.guns.end(),
                          [gun](const ReactingGun& r) { return r.gun == gun; });
    if (g == out.guns.end()) {
      ReactingGun r{gun, {0, 1}, fireModifiers(s, gun, mover, true), {}};
      for (int die = 1; die <= 4; ++die)
        r.losses_by_die.push_back(fireLosses(s, gun, mover, true, die));
      out.guns.push_back(r);
      g = out.guns.end() - 1;
    }
    g->probability = plus(g->probability, p);
  }
  ChanceList outcomes;
  chanceOutcomes(s, outcomes);
  for (const ChanceOutcome& o : outcomes) {
    GameState child = s;
    resolvePendingChance(child, o.value, nullptr);
    followStep(child, times(p, static_cast<uint64_t>(o.num), static_cast<uint64_t>(o.den)), mover,
               start, out, found);
  }
}

}  // namespace

StepPreview previewStep(const GameState& s, Action a) {
  StepPreview p;
  p.unit = s.unitAt(a.cell);
  p.from = a.cell;
  p.to = s.sc().neighbor(a.cell, a.arg);
  GameState after = s;
  applyAction(after, a);
  p.mp_left = after.unit(p.unit).mp;
  p.cost = s.unit(p.unit).mp - p.mp_left;
  p.stops = enemyControlled(s, p.to, s.sideOf(p.unit), p.unit);
  p.marsh_test = after.pending.kind == ChanceKind::kMarshTest;
  std::map<std::vector<UnitOutcome>, Probability> found;
  followStep(after, {1, 1}, p.unit, p.to, p, found);
  p.outcomes = sorted(found);
  return p;
}

}  // namespace morne::env
