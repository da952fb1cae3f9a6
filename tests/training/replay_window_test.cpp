// The replay window (training/replay_window.h): KataGo's formula on known values, growth, and
// the validation split's share and stability.

#include "training/replay_window.h"

#include <gtest/gtest.h>

#include <cmath>

#include "env/rng.h"

namespace morne::training {
namespace {

TEST(ReplayWindow, FollowsKataGosFormula) {
  const WindowConfig kata{250'000, 0.75, 0.4};
  EXPECT_EQ(windowRows(100'000, kata), 100'000);  // everything, below c
  EXPECT_EQ(windowRows(250'000, kata), 250'000);
  // N = 16c: (16)^0.75 = 8, so c (1 + 0.4 x 7 / 0.75) = c x 4.7333...
  EXPECT_EQ(windowRows(4'000'000, kata), static_cast<int64_t>(250'000 * (1 + 0.4 * 7 / 0.75)));
  int64_t last = 0;
  for (int64_t n = 1000; n < 100'000'000; n *= 3) {
    const int64_t w = windowRows(n, WindowConfig{});
    EXPECT_GE(w, last) << n;  // it grows
    EXPECT_LE(w, n) << n;     // never beyond the data
    last = w;
  }
  EXPECT_LT(windowRows(100'000'000, WindowConfig{}), 100'000'000 / 10);  // and lags far behind
  EXPECT_EQ(windowRows(1'000'000, WindowConfig{}), 209'898);             // docs/training.md
}

TEST(ReplayWindow, ValidationGamesAreAStableShare) {
  int validation = 0;
  for (uint64_t i = 0; i < 100'000; ++i) {
    const uint64_t seed = env::deriveSeed(7, i);
    const bool v = isValidationGame(seed, 50);
    EXPECT_EQ(v, isValidationGame(seed, 50));  // the same game, the same answer
    validation += v;
    if (v) {
      EXPECT_TRUE(isValidationGame(seed, 100));  // a larger share keeps the games it had
    }
  }
  // 5% of 100,000 games: 5,000, binomial standard deviation 69.
  EXPECT_NEAR(validation, 5000, 4 * 69);
  EXPECT_FALSE(isValidationGame(123, 0));
}

}  // namespace
}  // namespace morne::training
