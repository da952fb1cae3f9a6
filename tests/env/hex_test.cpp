// Hex geometry (M-HEX-1, M-HEX-2): axial neighbours, distance, the hex metric, offset labels.

#include "env/hex.h"

#include <gtest/gtest.h>

namespace morne::test {
namespace {

using env::Hex;

TEST(Hex, NeighboursAreAtDistanceOneAndOpposite_M_HEX_2) {
  for (int d = 0; d < env::kNumDirections; ++d) {
    const Hex n = env::kHexDirections[static_cast<size_t>(d)];
    EXPECT_EQ(env::hexDistance({0, 0}, n), 1);
    EXPECT_EQ(env::hexMetric(n, n), 2);
    EXPECT_EQ(n + env::kHexDirections[static_cast<size_t>(env::oppositeDirection(d))], (Hex{0, 0}));
    EXPECT_EQ(env::directionBetween({0, 0}, n), d);
    EXPECT_EQ(env::parseDirection(env::directionName(d)), d);
  }
  EXPECT_EQ(env::parseDirection("ne"), 1);
  EXPECT_FALSE(env::parseDirection("N"));
  EXPECT_FALSE(env::directionBetween({0, 0}, {2, 0}));
}

TEST(Hex, DistanceAndMetric_M_HEX_2_C_RET_4) {
  EXPECT_EQ(env::hexDistance({0, 0}, {3, -1}), 3);
  EXPECT_EQ(env::hexDistance({-2, 4}, {2, -4}), 8);
  // Retreat criterion 4 values from a neighbour at (1,0): opposite 8, back 6, front 2.
  const Hex e{1, 0};
  EXPECT_EQ(env::hexMetric(Hex{-1, 0} - e, Hex{-1, 0} - e), 8);
  EXPECT_EQ(env::hexMetric(Hex{0, -1} - e, Hex{0, -1} - e), 6);
  EXPECT_EQ(env::hexMetric(Hex{1, -1} - e, Hex{1, -1} - e), 2);
}

TEST(Hex, OffsetRoundTripBothLayouts) {
  for (env::OffsetLayout layout : {env::OffsetLayout::kOddR, env::OffsetLayout::kEvenR}) {
    for (int row = 0; row < 20; ++row) {
      for (int col = 0; col < 20; ++col) {
        int c = -1;
        int r = -1;
        env::axialToOffset(env::offsetToAxial(col, row, layout), layout, c, r);
        EXPECT_EQ(c, col);
        EXPECT_EQ(r, row);
      }
    }
  }
  // Odd-r: the hex below-right of (0,0) is (0,1) in offset terms; below-left is off the map.
  EXPECT_EQ(env::offsetToAxial(0, 1, env::OffsetLayout::kOddR), (Hex{0, 1}));
  EXPECT_EQ(env::offsetToAxial(0, 1, env::OffsetLayout::kEvenR), (Hex{-1, 1}));
}

TEST(Hex, Labels) {
  EXPECT_EQ(env::offsetLabel(4, 6), "0507");
  int col = 0;
  int row = 0;
  ASSERT_TRUE(env::parseOffsetLabel("0507", col, row));
  EXPECT_EQ(col, 4);
  EXPECT_EQ(row, 6);
  EXPECT_FALSE(env::parseOffsetLabel("507", col, row));
  EXPECT_FALSE(env::parseOffsetLabel("0500", col, row));
  EXPECT_FALSE(env::parseOffsetLabel("05a7", col, row));
}

}  // namespace
}  // namespace morne::test
