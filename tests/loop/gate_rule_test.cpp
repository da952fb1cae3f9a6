// The gate of `morne loop` on constructed results: a candidate is promoted exactly when its
// score reaches the threshold, draws count half, and a candidate without games is never
// promoted.

#include "loop/gate_rule.h"

#include <gtest/gtest.h>

namespace morne::test {
namespace {

TEST(GateRule, PromotesExactlyAtTheThreshold) {
  // 10 wins, 4 draws, 6 losses: (10 + 2) / 20 = 0.6.
  const loop::GateDecision d = loop::gateDecision({10, 4, 6}, 0.6);
  EXPECT_DOUBLE_EQ(d.score, 0.6);
  EXPECT_TRUE(d.promoted);
  EXPECT_FALSE(loop::gateDecision({10, 4, 6}, 0.61).promoted);
  EXPECT_TRUE(loop::gateDecision({8, 4, 8}, 0.5).promoted);   // even: kept at 0.5
  EXPECT_FALSE(loop::gateDecision({7, 5, 8}, 0.5).promoted);  // 0.475
  EXPECT_TRUE(loop::gateDecision({0, 20, 0}, 0.5).promoted);  // all drawn
  EXPECT_FALSE(loop::gateDecision({0, 20, 0}, 0.55).promoted);
}

TEST(GateRule, NoGamesNoPromotion) { EXPECT_FALSE(loop::gateDecision({0, 0, 0}, 0.0).promoted); }

}  // namespace
}  // namespace morne::test
