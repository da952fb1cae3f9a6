#include "env/preview.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "env/rules.h"

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
  o.retreated = o.cell != kNoCell && o.cell != start && !o.advanced;
  o.victorious = s.has(u, unit_flag::kVictorious);
  return o;
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
        return x.pending.kind == ChanceKind::kFireDie || x.pending.kind == ChanceKind::kFireCoin;
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
  const CellId ac = s.unit(attacker).cell;
  const CellId dc = s.unit(defender).cell;
  std::map<std::vector<UnitOutcome>, Probability> found;
  enumerate(
      after, {1, 1}, [](const GameState& x) { return x.combat.active(); },
      [&](const GameState& x) {
        return std::vector<UnitOutcome>{outcomeOf(x, attacker, ac, dc),
                                        outcomeOf(x, defender, dc, ac)};
      },
      found);
  p.outcomes = sorted(found);
  return p;
}

}  // namespace morne::env
