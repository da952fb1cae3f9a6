// Hidden information (S-4): what the second player may not see in game turn 1.

#include "env/visibility.h"

#include <gtest/gtest.h>

#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

TEST(Visibility, TheFirstPlayersPlacementsAreHiddenUntilTurnTwo_S_4) {
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G", .type = "general", .at = {0, 3}, .corps = "I", .radius = 4});
  m.unit({.id = "P", .corps = "I", .placed_at_setup = true});
  m.setupZone(0, {{0, 1}, {1, 1}});
  m.unit({.id = "O", .side = 1, .at = {0, -4}});
  m.unit({.id = "Q", .side = 1, .placed_at_setup = true});
  m.setupZone(1, {{0, -3}});
  m.turns(2);
  const auto sc = m.build();
  env::GameState s = env::newGame(*sc);
  const int p = unitOf(*sc, "P");
  const int q = unitOf(*sc, "Q");
  env::applyAction(s, env::Action::place(cellOf(*sc, {1, 1})));
  EXPECT_TRUE(env::hiddenFrom(s, p, 1));
  EXPECT_FALSE(env::hiddenFrom(s, p, 0)) << "a side sees its own units";
  EXPECT_FALSE(env::hiddenFrom(s, unitOf(*sc, "G"), 1)) << "fixed units are public";
  EXPECT_TRUE(env::decisionsHiddenFrom(s, 1));
  const env::GameState view = env::publicView(s, 1);
  EXPECT_FALSE(view.onMap(p));
  EXPECT_EQ(view.unitAt(cellOf(*sc, {1, 1})), -1);
  EXPECT_TRUE(view.has(p, env::unit_flag::kAwaitingSetup));
  EXPECT_EQ(env::publicView(s, 0), s) << "blue sees everything";
  // Orange places Q without seeing P; from game turn 2 nothing is hidden.
  while (s.turn == 1 && !s.isTerminal()) {
    if (s.isChanceNode()) {
      env::applyChance(s, 1);
      continue;
    }
    if (s.side == 1 && s.phase == env::Phase::kSetup) {
      EXPECT_TRUE(env::hidesAny(s, 1));
      EXPECT_FALSE(env::decisionsHiddenFrom(s, 1)) << "orange's own decisions";
      env::applyAction(s, env::Action::place(cellOf(*sc, {0, -3})));
      EXPECT_FALSE(env::hiddenFrom(s, q, 0)) << "the second player hides nothing";
      continue;
    }
    env::applyAction(s, env::Action::end());
  }
  EXPECT_FALSE(env::hidesAny(s, 1));
}

TEST(Visibility, NothingIsHiddenWhenTheFirstPlayerPlacesNoUnit_S_4) {
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G", .type = "general", .at = {0, 3}, .corps = "I", .radius = 4});
  m.unit({.id = "P", .at = {1, 1}, .corps = "I"});
  m.unit({.id = "Q", .side = 1, .placed_at_setup = true});
  m.setupZone(1, {{0, -3}});
  m.turns(2);
  const auto sc = m.build();
  const env::GameState s = env::newGame(*sc);
  ASSERT_EQ(s.turn, 1);
  ASSERT_EQ(s.side, 0);
  EXPECT_FALSE(env::decisionsHiddenFrom(s, 1)) << "blue's moves of turn 1 reveal nothing";
  EXPECT_FALSE(env::hidesAny(s, 1));
}

}  // namespace
}  // namespace morne::test
