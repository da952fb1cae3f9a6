// The targets a game's rows get when it ends (training/final_targets.h): the short-term values
// against a hand computation, the final control against the units and owners of a finished
// game.

#include "training/final_targets.h"

#include <gtest/gtest.h>

#include <cmath>

#include "env/io/scenario_library.h"
#include "env/rng.h"
#include "env/rules.h"

namespace morne::training {
namespace {

// Horizon 2 (each step keeps half of what follows), blue wins: u4 = 1; decision 3 (orange,
// -0.4: blue 0.4) u3 = 0.2 + 0.5 = 0.7; decision 2 has no value: u2 = 0.7; decision 1 (orange,
// 0.2: blue -0.2) u1 = -0.1 + 0.35 = 0.25; decision 0 (blue, 0.5) u0 = 0.25 + 0.125 = 0.375.
TEST(FinalTargets, ShortTermValuesAreTheHandComputedAverages) {
  const DecisionValue decisions[] = {{0, 0.5f}, {1, 0.2f}, {0, std::nanf("")}, {1, -0.4f}};
  float out[4];
  shortTermValues(decisions, 1.0f, 2, out);
  EXPECT_NEAR(out[0], 0.375f, 1e-6);
  EXPECT_NEAR(out[1], 0.25f, 1e-6);
  EXPECT_NEAR(out[2], 0.7f, 1e-6);
  EXPECT_NEAR(out[3], 0.7f, 1e-6);
  // Horizon 1: each decision's own value (the result after the last).
  shortTermValues(decisions, -1.0f, 1, out);
  EXPECT_NEAR(out[0], 0.5f, 1e-6);
  EXPECT_NEAR(out[1], -0.2f, 1e-6);
  EXPECT_NEAR(out[2], 0.4f, 1e-6);
  EXPECT_NEAR(out[3], 0.4f, 1e-6);
}

// At the end of random games: +1 on the squares of blue units, -1 on orange's, owned hexes and
// forts their owner's sign, every other square 0; the margin counts duel's handicap (1.5 VP to
// orange); each row's targets from its side's view.
TEST(FinalTargets, ControlAndMarginAreTheFinalPositionsFromEachRowsSide) {
  const auto sc = env::loadScenario("duel");
  const nn::ObservationEncoder encoder(*sc);
  env::Rng rng(3);
  env::ActionList scratch;
  for (int game = 0; game < 3; ++game) {
    env::GameState s = env::newGame(*sc);
    std::vector<DecisionValue> decisions;
    GameData g;
    while (!s.isTerminal()) {
      if (!s.isChanceNode()) {
        decisions.push_back({static_cast<uint8_t>(s.side), 0.1f});
        g.side.push_back(static_cast<uint8_t>(s.side));
        g.move.push_back(static_cast<int32_t>(decisions.size() - 1));
      }
      env::playRandomPly(s, rng, scratch);
    }
    g.rows = static_cast<int32_t>(g.side.size());
    const env::GameResult r = env::gameResult(s);
    g.winner = static_cast<int8_t>(r.winner);
    g.vp_blue = static_cast<int16_t>(r.vp[0]);
    g.vp_orange = static_cast<int16_t>(r.vp[1]);
    g.handicap_half = static_cast<int8_t>(r.handicap_half[0] - r.handicap_half[1]);
    ASSERT_EQ(g.handicap_half, -3);
    fillFinalTargets(s, decisions, encoder, g);

    const size_t area = static_cast<size_t>(encoder.shape().height * encoder.shape().width);
    std::vector<float> expected(area, 0.0f);
    for (size_t t = 0; t < sc->trackedCells().size(); ++t) {
      if (s.owner[t] >= 0)
        expected[static_cast<size_t>(encoder.gridIndex(sc->trackedCells()[t]))] =
            s.owner[t] == 0 ? 1.0f : -1.0f;
    }
    for (size_t f = 0; f < sc->fortCells().size(); ++f) {
      if (s.fort_control[f] >= 0)
        expected[static_cast<size_t>(encoder.gridIndex(sc->fortCells()[f]))] =
            s.fort_control[f] == 0 ? 1.0f : -1.0f;
    }
    int units = 0;
    for (int u = 0; u < s.num_units; ++u) {
      if (!s.onMap(u)) continue;
      ++units;
      expected[static_cast<size_t>(encoder.gridIndex(s.unit(u).cell))] =
          s.sideOf(u) == 0 ? 1.0f : -1.0f;
    }
    ASSERT_GT(units, 0);
    ASSERT_EQ(g.control.size(), static_cast<size_t>(g.rows) * area);
    ASSERT_EQ(g.short_value.size(), static_cast<size_t>(g.rows) * kShortValueHorizons.size());
    for (size_t row = 0; row < static_cast<size_t>(g.rows); ++row) {
      const float mine = g.side[row] == 0 ? 1.0f : -1.0f;
      EXPECT_EQ(g.margin[row], mine * (static_cast<float>(g.vp_blue - g.vp_orange) - 1.5f));
      for (size_t i = 0; i < area; ++i)
        ASSERT_EQ(g.control[row * area + i], mine * expected[i])
            << "row " << row << " square " << i;
      for (size_t h = 0; h < kShortValueHorizons.size(); ++h) {
        const float v = g.short_value[row * kShortValueHorizons.size() + h];
        EXPECT_GE(v, -1.0f);
        EXPECT_LE(v, 1.0f);
      }
    }
  }
}

}  // namespace
}  // namespace morne::training
