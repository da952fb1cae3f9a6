// Previews agree exactly with resolution: the factors they list are the ones the resolution
// uses, and their outcome distributions match what applyAction and applyChance produce.

#include "env/preview.h"

#include <gtest/gtest.h>

#include <map>

#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

// The walk-through of worked-examples.md §14, in the combat phase.
env::GameState walkThrough(std::shared_ptr<const env::Scenario>& sc) {
  TestMap m;
  m.unit({.id = "X", .at = {0, 0}, .vc = 4, .mo = 5})
      .unit({.id = "Y", .side = 1, .at = {1, 0}, .vc = 3, .mo = 3});
  m.unit({.id = "Z", .at = {1, 1}, .vc = 2, .mo = 4}).water({0, 0}, {1, 0}, "stream");
  sc = m.build();
  return stateIn(*sc, env::Phase::kCombat, 0);
}

TEST(Preview, CombatFactorsAndExactDistribution_C_RES_1) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = walkThrough(sc);
  const env::Action attack = env::Action::attack(cellOf(*sc, {0, 0}), 0);
  const env::CombatPreview p = env::previewCombat(s, attack);
  EXPECT_EQ(p.odds.attack, 4);
  EXPECT_EQ(p.odds.defence, 3);
  EXPECT_EQ(p.odds.dieModifier(), 1);
  ASSERT_EQ(p.dice.size(), 6u);
  EXPECT_EQ(p.dice[0].die, 2);
  EXPECT_EQ(env::crtCellText(p.dice[5].result), "0/2*");
  // Y retreats when a test fails: d6 2, 3, 4 or 6 give a test (4/6), and a d9 above MO 3
  // fails it (6/9): 4/9.
  env::Probability total{0, 1};
  uint64_t retreat_num = 0;
  uint64_t retreat_den = 1;
  for (const env::Outcome& o : p.outcomes) {
    const uint64_t den = std::lcm(total.den, o.probability.den);
    total = {total.num * (den / total.den) + o.probability.num * (den / o.probability.den), den};
    if (o.units[1].retreated) {
      const uint64_t d = std::lcm(retreat_den, o.probability.den);
      retreat_num = retreat_num * (d / retreat_den) + o.probability.num * (d / o.probability.den);
      retreat_den = d;
    }
  }
  EXPECT_EQ(total.num, total.den) << "probabilities sum to exactly 1";
  EXPECT_EQ(retreat_num * 9, retreat_den * 4) << "P(Y retreats) = 4/9";
  // Y tests its morale on d6 2, 3, 4 or 6 and fails it with a d9 above 3 (C-MOR-1).
  EXPECT_EQ(p.morale_tests[1].tested.num * 3, p.morale_tests[1].tested.den * 2) << "4/6";
  EXPECT_EQ(p.morale_tests[1].failed.num * 9, p.morale_tests[1].failed.den * 4) << "4/9";
}

// Outcome of one resolution with random dice, in the preview's terms.
std::vector<env::UnitOutcome> sampleResolution(const env::GameState& s, env::Action a,
                                               env::Rng& rng, std::vector<int> units,
                                               std::vector<env::CellId> starts,
                                               env::EventLog* log) {
  env::GameState x = s;
  env::EventLog own;
  if (!log) log = &own;
  env::applyAction(x, a, log);
  while (x.isChanceNode() && (x.combat.active() || x.pending.kind == env::ChanceKind::kFireDie ||
                              x.pending.kind == env::ChanceKind::kFireCoin)) {
    env::resolvePendingChance(x, env::sampleChance(x, rng), log);
  }
  std::vector<env::UnitOutcome> out;
  for (size_t i = 0; i < units.size(); ++i) {
    env::UnitOutcome o;
    o.unit = units[i];
    o.vc = x.unit(units[i]).vc;
    o.mo = x.unit(units[i]).mo;
    o.cell = x.unit(units[i]).cell;
    const env::CellId enemy_start = starts.size() > 1 ? starts[1 - i] : env::kNoCell;
    o.advanced = o.cell != env::kNoCell && o.cell == enemy_start;
    o.retreated = o.cell != env::kNoCell && o.cell != starts[i] && !o.advanced;
    o.victorious = x.has(units[i], env::unit_flag::kVictorious);
    for (const env::Event& e : *log) {  // C-RET-7: the enemy zones each retreat entered
      if (e.type == env::EventType::kRetreat && e.unit == units[i]) o.retreat_zocs += e.a;
    }
    out.push_back(o);
  }
  return out;
}

void expectAgreement(const std::vector<env::Outcome>& preview,
                     const std::map<std::vector<env::UnitOutcome>, int>& counts, int samples) {
  for (const auto& [key, n] : counts) {
    bool found = false;
    for (const env::Outcome& o : preview) {
      if (o.units != key) continue;
      found = true;
      EXPECT_NEAR(static_cast<double>(n) / samples, o.probability.value(), 0.015);
    }
    EXPECT_TRUE(found) << "an outcome the preview did not list";
  }
}

TEST(Preview, CombatDistributionMatchesResolution) {
  std::shared_ptr<const env::Scenario> sc;
  const env::GameState s = walkThrough(sc);
  const env::Action attack = env::Action::attack(cellOf(*sc, {0, 0}), 0);
  const env::CombatPreview p = env::previewCombat(s, attack);
  env::Rng rng(17);
  std::map<std::vector<env::UnitOutcome>, int> counts;
  constexpr int kSamples = 20000;
  const std::vector<int> units = {unitOf(*sc, "X"), unitOf(*sc, "Y")};
  const std::vector<env::CellId> starts = {cellOf(*sc, {0, 0}), cellOf(*sc, {1, 0})};
  for (int i = 0; i < kSamples; ++i) {
    env::EventLog log;
    ++counts[sampleResolution(s, attack, rng, units, starts, i == 0 ? &log : nullptr)];
    if (i == 0) {  // the declaration's event carries the preview's strengths and odds
      EXPECT_EQ(log[0].type, env::EventType::kAttack);
      EXPECT_EQ(log[0].a, p.odds.attack);
      EXPECT_EQ(log[0].b, p.odds.defence);
      EXPECT_EQ(log[0].c, p.odds.column);
    }
  }
  expectAgreement(p.outcomes, counts, kSamples);
}

TEST(Preview, FireDistributionMatchesResolution) {
  TestMap m;
  m.unit({.id = "G", .type = "foot_artillery", .at = {0, 0}, .vt = 4});
  m.unit({.id = "T", .side = 1, .at = {2, 0}, .vc = 3, .mo = 2});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kBombardment, 0);
  env::ActionList legal;
  env::legalActions(s, legal);
  ASSERT_EQ(legal.size(), 2u);
  const env::FirePreview p = env::previewFire(s, legal[1]);
  EXPECT_EQ(p.modifiers.total(), -1);
  EXPECT_EQ(p.losses_by_die, (std::vector<int>{2, 2, 3, 3}));
  env::Rng rng(23);
  std::map<std::vector<env::UnitOutcome>, int> counts;
  constexpr int kSamples = 20000;
  for (int i = 0; i < kSamples; ++i) {
    ++counts[sampleResolution(s, legal[1], rng, {unitOf(*sc, "T")}, {cellOf(*sc, {2, 0})},
                              nullptr)];
  }
  expectAgreement(p.outcomes, counts, kSamples);
  EXPECT_GE(p.outcomes.size(), 4u);
}

// A step next to an enemy gun: the step stops in its zone of control and draws its reaction
// fire (F-REACT-2, -1 to the die); the preview's distribution is what resolution produces.
TEST(Preview, StepShowsTheReactionFireItDraws_F_REACT_2) {
  TestMap m;
  m.unit({.id = "I", .at = {0, 0}, .vc = 3, .mo = 3, .ma = 4});
  m.unit({.id = "G", .side = 1, .type = "foot_artillery", .at = {2, 0}, .vt = 4});
  m.terrain({0, 1}, "marsh");
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kMovement, 0);
  const env::Action step = env::Action::move(cellOf(*sc, {0, 0}), 0);
  ASSERT_EQ(sc->neighbor(cellOf(*sc, {0, 0}), 0), cellOf(*sc, {1, 0}));
  ASSERT_TRUE(env::isLegal(s, step));
  const env::StepPreview p = env::previewStep(s, step);
  EXPECT_EQ(p.cost, 1);
  EXPECT_EQ(p.mp_left, 3);
  EXPECT_TRUE(p.stops) << "the gun's zone of control (MV-ZOC-2)";
  EXPECT_FALSE(p.marsh_test);
  ASSERT_EQ(p.guns.size(), 1u);
  EXPECT_EQ(p.guns[0].gun, unitOf(*sc, "G"));
  EXPECT_EQ(p.guns[0].probability.num, p.guns[0].probability.den) << "it fires for certain";
  EXPECT_EQ(p.guns[0].modifiers.reaction, -1);
  env::Rng rng(29);
  std::map<std::vector<env::UnitOutcome>, int> counts;
  constexpr int kSamples = 20000;
  for (int i = 0; i < kSamples; ++i) {
    ++counts[sampleResolution(s, step, rng, {unitOf(*sc, "I")}, {cellOf(*sc, {1, 0})}, nullptr)];
  }
  expectAgreement(p.outcomes, counts, kSamples);
  EXPECT_GE(p.outcomes.size(), 2u);

  // Away from the gun: no fire, and a marsh hex asks for a test.
  for (int d = 0; d < env::kNumDirections; ++d) {
    if (sc->neighbor(cellOf(*sc, {0, 0}), d) != cellOf(*sc, {0, 1})) continue;
    const env::StepPreview marsh = env::previewStep(s, env::Action::move(cellOf(*sc, {0, 0}), d));
    EXPECT_TRUE(marsh.marsh_test);
    EXPECT_TRUE(marsh.guns.empty());
    EXPECT_FALSE(marsh.stops);
  }
}

}  // namespace
}  // namespace morne::test
