// Line of sight (F-LOS-*): every case of worked-examples.md §3 (WX-L-*), the precomputed table
// against the direct computation, symmetry.

#include "env/los.h"

#include <gtest/gtest.h>

#include "env/io/scenario_library.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

struct LosCase {
  const char* id;
  Hex from;
  Hex to;
  std::vector<std::pair<Hex, const char*>> terrain;
  std::vector<std::pair<Hex, int>> levels;
  bool visible;
};

bool sees(const env::Scenario& sc, Hex a, Hex b) {
  const Hex origin = sc.hexOf(cellOf(sc, {0, 0}));
  auto terrain = [&sc](Hex h) { return sc.losTerrain(h); };
  return env::lineOfSight(a + origin, b + origin, terrain, sc.rules().los_obstacle_height).visible;
}

TEST(LineOfSight, WorkedExamples_WX_L_01_to_24) {
  const LosCase cases[] = {
      {"WX-L-01", {0, 0}, {3, 0}, {{{1, 0}, "woods"}}, {}, false},
      {"WX-L-02", {0, 0}, {3, 0}, {{{1, -1}, "woods"}, {{2, 1}, "woods"}}, {}, true},
      {"WX-L-03", {0, 0}, {1, -2}, {{{0, -1}, "woods"}}, {}, true},
      {"WX-L-04", {0, 0}, {1, -2}, {{{0, -1}, "woods"}, {{1, -1}, "woods"}}, {}, false},
      {"WX-L-05", {0, 0}, {2, -4}, {{{0, -1}, "woods"}, {{2, -3}, "woods"}}, {}, false},
      {"WX-L-06", {0, 0}, {2, -4}, {{{0, -1}, "woods"}, {{1, -3}, "woods"}}, {}, true},
      {"WX-L-07", {0, 0}, {2, -4}, {{{1, -2}, "woods"}}, {}, false},
      {"WX-L-08", {0, 0}, {5, -1}, {{{2, -1}, "woods"}, {{3, 0}, "woods"}}, {}, true},
      {"WX-L-09", {0, 0}, {5, -1}, {{{2, 0}, "woods"}}, {}, false},
      {"WX-L-10", {0, 0}, {3, 0}, {}, {{{0, 0}, 1}, {{1, 0}, 1}}, false},
      {"WX-L-11", {0, 0}, {2, 0}, {}, {{{0, 0}, 1}}, true},
      {"WX-L-12", {0, 0}, {3, 0}, {}, {{{0, 0}, 3}, {{1, 0}, 2}, {{2, 0}, 1}}, true},
      {"WX-L-13", {0, 0}, {3, 0}, {}, {{{0, 0}, 3}, {{1, 0}, 2}, {{2, 0}, 2}}, false},
      {"WX-L-14", {3, 0}, {0, 0}, {}, {{{0, 0}, 1}, {{1, 0}, 1}}, false},
      {"WX-L-15", {0, 0}, {3, 0}, {}, {{{1, 0}, -1}, {{2, 0}, -1}}, true},
      {"WX-L-16", {0, 0}, {3, 0}, {}, {{{1, 0}, 1}}, false},
      {"WX-L-17", {0, 0}, {3, 0}, {}, {{{0, 0}, 1}, {{1, 0}, 1}, {{2, 0}, 1}, {{3, 0}, 1}}, true},
      {"WX-L-18", {0, 0}, {2, 0}, {}, {{{2, 0}, 2}}, true},
      {"WX-L-19", {0, 0}, {3, 0}, {}, {{{2, 0}, 2}, {{3, 0}, 2}}, false},
      {"WX-L-20", {0, 0}, {2, 0}, {{{1, 0}, "woods"}}, {{{0, 0}, 2}}, true},
      {"WX-L-21", {0, 0}, {2, 0}, {{{1, 0}, "woods"}}, {{{0, 0}, 1}}, false},
      {"WX-L-22", {0, 0}, {2, 0}, {}, {}, true},  // units on (1,0) never matter: LOS is map-only
      {"WX-L-23 marsh", {0, 0}, {2, 0}, {{{1, 0}, "marsh"}}, {}, true},
      {"WX-L-23 rough", {0, 0}, {2, 0}, {{{1, 0}, "rough"}}, {}, true},
      {"WX-L-23 coppice", {0, 0}, {2, 0}, {{{1, 0}, "coppice"}}, {}, true},
      {"WX-L-24 village", {0, 0}, {2, 0}, {{{1, 0}, "village"}}, {}, false},
      {"WX-L-24 fort", {0, 0}, {2, 0}, {{{1, 0}, "fort"}}, {}, false},
      {"WX-L-24 palm grove", {0, 0}, {2, 0}, {{{1, 0}, "palm_grove"}}, {}, false},
      {"WX-L-24 dune", {0, 0}, {2, 0}, {{{1, 0}, "dune"}}, {}, false},
      {"hamlet, orchard: no obstacle",
       {0, 0},
       {3, 0},
       {{{1, 0}, "hamlet"}, {{2, 0}, "orchard"}},
       {},
       true},
  };
  for (const LosCase& c : cases) {
    TestMap m;
    for (const auto& [h, t] : c.terrain) m.terrain(h, t);
    for (const auto& [h, l] : c.levels) m.level(h, l);
    const auto sc = m.build();
    EXPECT_EQ(sees(*sc, c.from, c.to), c.visible) << c.id;
    EXPECT_EQ(sees(*sc, c.to, c.from), c.visible) << c.id << " (F-LOS-8: symmetric)";
  }
}

TEST(LineOfSight, ObstacleHeightSwitch_F_LOS_7_Q_F_3) {
  TestMap m;
  m.terrain({1, 0}, "woods").level({0, 0}, 2).rule("los_obstacle_height", 2);
  EXPECT_FALSE(sees(*m.build(), {0, 0}, {2, 0})) << "WX-L-20 flips when woods count two levels";
}

TEST(LineOfSight, ContactClassification_F_LOS_3) {
  // WX-L-08: the crossed hexes and the two corner tangencies.
  const Hex s{0, 0};
  const Hex t{5, -1};
  for (Hex h : {Hex{1, 0}, Hex{2, 0}, Hex{3, -1}, Hex{4, -1}}) {
    EXPECT_EQ(env::classifyHex(s, t, h), env::LosContact::kCrossed) << h.q << "," << h.r;
  }
  EXPECT_EQ(env::classifyHex(s, t, {2, -1}), env::LosContact::kTouched);
  EXPECT_EQ(env::classifyHex(s, t, {3, 0}), env::LosContact::kTouched);
  EXPECT_EQ(env::classifyHex({0, 0}, {1, -2}, {0, -1}), env::LosContact::kEdge);
  EXPECT_EQ(env::classifyHex({0, 0}, {3, 0}, {1, 1}), env::LosContact::kNone);
}

TEST(LineOfSight, PrecomputedTableMatchesDirectComputation) {
  for (const char* name : {"crossing", "pyramids", "duel"}) {
    const auto sc = env::loadScenario(name);
    auto terrain = [&sc](Hex h) { return sc->losTerrain(h); };
    int blocked = 0;
    for (env::CellId a = 0; a < sc->numCells(); ++a) {
      for (env::CellId b = 0; b < sc->numCells(); ++b) {
        if (sc->distance(a, b) > sc->maxRange()) continue;
        const bool direct =
            env::lineOfSight(sc->hexOf(a), sc->hexOf(b), terrain, sc->rules().los_obstacle_height)
                .visible;
        ASSERT_EQ(sc->visible(a, b), direct) << name << " " << sc->label(a) << "-" << sc->label(b);
        ASSERT_EQ(sc->visible(a, b), sc->visible(b, a)) << "symmetric";
        blocked += !direct;
      }
    }
    EXPECT_GT(blocked, 0) << name << ": obstacles and hills should hide something";
  }
}

}  // namespace
}  // namespace morne::test
