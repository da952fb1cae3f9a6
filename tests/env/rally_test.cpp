// Rally (§7): worked-examples.md §11 (WX-RA-*), with the general "G" of corps "I" at (0,0),
// command radius 3.

#include "env/rally.h"

#include <gtest/gtest.h>

#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

struct RallyCase {
  const char* id;
  Hex at;          // where the unit stands
  int mo;          // its MO now (initial 5)
  bool moved;      // moved this player-turn (advance and retreat included)
  bool enemy_zoc;  // an enemy unit next to it
  bool stream;     // a stream between it and the general (it stands next to the general)
  int gain;        // MO regained (capped at 5)
};

TEST(Rally, WorkedExamples_WX_RA_01_to_09_R_1_to_5) {
  const RallyCase cases[] = {
      {"WX-RA-01", {1, 0}, 0, false, false, false, 1},
      {"WX-RA-02", {2, 0}, 0, false, false, false, 0},
      {"WX-RA-03", {2, 0}, 2, false, false, false, 1},
      {"WX-RA-04", {1, 0}, 2, false, false, false, 2},
      {"WX-RA-05", {1, 0}, 2, true, false, false, 1},
      {"WX-RA-06", {2, 0}, 2, true, false, false, 0},
      {"WX-RA-07", {1, 0}, 4, false, false, false, 1},
      {"WX-RA-09", {1, 0}, 0, false, false, true, 0},
      {"in enemy ZOC", {2, 0}, 2, false, true, false, 0},
      {"out of radius", {4, 0}, 2, false, false, false, 0},
  };
  for (const RallyCase& c : cases) {
    TestMap m;
    m.corps(0, "I").unit({.id = "G", .type = "general", .at = {0, 0}, .corps = "I", .radius = 3});
    m.unit({.id = "U", .at = c.at, .mo = 5, .corps = "I"});
    if (c.enemy_zoc) m.unit({.id = "E", .side = 1, .at = c.at + Hex{1, 0}});
    if (c.stream) m.water({0, 0}, c.at, "stream");
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    const int u = unitOf(*sc, "U");
    env::setUnitMo(s, u, c.mo);
    if (c.moved) env::addUnitFlags(s, u, env::unit_flag::kMoved);
    env::rallyPhase(s, nullptr);
    EXPECT_EQ(s.unit(u).mo, c.mo + c.gain) << c.id;
  }
}

TEST(Rally, IndependentUnitsAndLostGeneralsNeverRally_WX_RA_08_R_4_CMD_4) {
  TestMap m;
  m.corps(0, "I").unit({.id = "G", .type = "general", .at = {0, 0}, .corps = "I"});
  m.unit({.id = "Indep", .at = {-1, 0}, .mo = 5})
      .unit({.id = "U", .at = {1, 0}, .mo = 5, .corps = "I"});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  env::setUnitMo(s, unitOf(*sc, "Indep"), 2);
  env::setUnitMo(s, unitOf(*sc, "U"), 2);
  EXPECT_EQ(env::rallyGain(s, unitOf(*sc, "Indep")), 0);
  EXPECT_EQ(env::rallyGain(s, unitOf(*sc, "U")), 2);
  env::setUnitCell(s, unitOf(*sc, "G"), env::kNoCell);
  EXPECT_EQ(env::rallyGain(s, unitOf(*sc, "U")), 0);
}

TEST(Rally, OnlyThePhasingSideUnlessSwitched_R_1_Q_R_1) {
  for (const bool both : {false, true}) {
    TestMap m;
    m.corps(1, "X").unit({.id = "OG", .side = 1, .type = "general", .at = {0, 0}, .corps = "X"});
    m.unit({.id = "O", .side = 1, .at = {1, 0}, .mo = 5, .corps = "X"});
    if (both) m.rule("rally_sides", "both");
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    env::setUnitMo(s, unitOf(*sc, "O"), 2);
    env::rallyPhase(s, nullptr);
    EXPECT_EQ(s.unit(unitOf(*sc, "O")).mo, both ? 4 : 2);
  }
}

TEST(Rally, BridgeJoinsButStreamSeparates_M_CONTACT_2) {
  for (const bool bridge : {false, true}) {
    TestMap m;
    m.corps(0, "I").unit({.id = "G", .type = "general", .at = {0, 0}, .corps = "I"});
    m.unit({.id = "U", .at = {1, 0}, .mo = 5, .corps = "I"}).water({0, 0}, {1, 0}, "stream");
    if (bridge) m.crossing({0, 0}, {1, 0}, "bridge");
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    env::setUnitMo(s, unitOf(*sc, "U"), 0);
    EXPECT_EQ(env::rallyGain(s, unitOf(*sc, "U")), bridge ? 1 : 0);
  }
}

}  // namespace
}  // namespace morne::test
