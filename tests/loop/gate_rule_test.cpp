// The gate of `morne loop` on constructed results: a candidate is promoted exactly when its
// score reaches the threshold, draws count half, and a candidate without games is never
// promoted; the SPRT's log-likelihood ratio and verdicts against a hand computation.

#include "loop/gate_rule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

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

// s0 = 0.5; s1 = 1 / (1 + 10^(-35/400)) = 0.5501994...; Wald's bounds at alpha = beta = 0.05:
// +-log(19) = +-2.944.
TEST(GateRule, SprtLlrAgainstAHandComputation) {
  const loop::SprtConfig c;  // elo0 0, elo1 35, alpha = beta = 0.05
  EXPECT_NEAR(loop::eloScore(35), 0.5501994, 1e-7);
  // Six pairs 1, 1, 0.5, 1, 0.75, 1 and the virtual 0 and 1: n = 8, mean 6.25 / 8 = 0.78125,
  // mean of squares 5.8125 / 8 = 0.7265625, variance 0.1162109375;
  // LLR = 8 x 0.0501994 x (1.5625 - 1.0501994) / (2 x 0.1162109375) = 0.88519.
  const double six[] = {1, 1, 0.5, 1, 0.75, 1};
  EXPECT_NEAR(loop::sprtLlr(six, c), 0.885189, 1e-5);
  EXPECT_EQ(loop::sprtVerdict(loop::sprtLlr(six, c), c), loop::SprtVerdict::kContinue);
  // 20 pairs won: n = 22, mean 21/22, variance 21/22 - (21/22)^2 = 0.0433884;
  // LLR = 22 x 0.0501994 x (42/22 - 1.0501994) / 0.0867769 = 10.93: H1.
  const std::vector<double> won(20, 1.0);
  EXPECT_NEAR(loop::sprtLlr(won, c), 10.930882, 1e-5);
  EXPECT_EQ(loop::sprtVerdict(loop::sprtLlr(won, c), c), loop::SprtVerdict::kAcceptH1);
  // Every pair split (0.5): equal networks. 20 pairs: LLR = 22 x 0.0501994 x (-0.0501994) /
  // (2 x (6/22 - 1/4)) = -1.2197, go on; 60 pairs: 62 x ... / (2 x (16/62 - 1/4)) = -9.687: H0.
  const std::vector<double> split20(20, 0.5), split60(60, 0.5);
  EXPECT_NEAR(loop::sprtLlr(split20, c), -1.219668, 1e-5);
  EXPECT_EQ(loop::sprtVerdict(loop::sprtLlr(split20, c), c), loop::SprtVerdict::kContinue);
  EXPECT_NEAR(loop::sprtLlr(split60, c), -9.686784, 1e-5);
  EXPECT_EQ(loop::sprtVerdict(loop::sprtLlr(split60, c), c), loop::SprtVerdict::kAcceptH0);
}

TEST(GateRule, SprtVerdictsAtWaldsBounds) {
  const loop::SprtConfig c;
  const double upper = std::log(19.0);
  EXPECT_EQ(loop::sprtVerdict(upper, c), loop::SprtVerdict::kAcceptH1);
  EXPECT_EQ(loop::sprtVerdict(upper - 1e-9, c), loop::SprtVerdict::kContinue);
  EXPECT_EQ(loop::sprtVerdict(-upper, c), loop::SprtVerdict::kAcceptH0);
  EXPECT_EQ(loop::sprtVerdict(-upper + 1e-9, c), loop::SprtVerdict::kContinue);
  // Wider error rates narrow the bounds: alpha = beta = 0.2 gives +-log(4) = +-1.386.
  const loop::SprtConfig loose{0, 35, 0.2, 0.2};
  EXPECT_EQ(loop::sprtVerdict(1.39, loose), loop::SprtVerdict::kAcceptH1);
  EXPECT_EQ(loop::sprtVerdict(1.38, loose), loop::SprtVerdict::kContinue);
}

}  // namespace
}  // namespace morne::test
