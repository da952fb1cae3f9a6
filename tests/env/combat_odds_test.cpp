// Combat before the die (§6.1-6.5): who may attack, supports, terrain effects on strengths,
// odds and die modifiers. worked-examples.md §1 (WX-C-*), §2 (WX-T-*), §5 (WX-D-*).

#include <gtest/gtest.h>

#include "env/combat.h"
#include "env/crt.h"
#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;

// Blue attacker "A" at (0,0), orange defender "D" at (1,0), plus `extra` units.
struct Fight {
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s;
  env::CombatOdds odds;
};

Fight fight(TestMap m) {
  Fight f;
  f.sc = m.build();
  f.s = stateIn(*f.sc, env::Phase::kCombat, 0);
  f.odds = env::combatOdds(f.s, unitOf(*f.sc, "A"), unitOf(*f.sc, "D"));
  return f;
}

TestMap duelOf(UnitSpec attacker, UnitSpec defender) {
  attacker.id = "A";
  attacker.at = {0, 0};
  defender.id = "D";
  defender.side = 1;
  defender.at = {1, 0};
  TestMap m;
  m.unit(attacker).unit(defender);
  return m;
}

std::string odds(const Fight& f) { return env::oddsName(f.odds.column); }

TEST(CombatOdds, RatiosRoundedForTheDefender_WX_C_01_04_08_to_16_C_RATIO_2_3) {
  struct Case {
    const char* id;
    int a, d;
    const char* expected;
  };
  const Case cases[] = {
      {"WX-C-01", 6, 2, "3:1"},   {"WX-C-04", 3, 6, "1:2"},   {"WX-C-08", 5, 2, "2:1"},
      {"WX-C-09", 7, 2, "3:1"},   {"WX-C-10", 2, 3, "1:2"},   {"WX-C-11", 3, 5, "1:2"},
      {"WX-C-12", 2, 5, "1:3"},   {"WX-C-13", 3, 4, "1:2"},   {"WX-C-14a", 11, 6, "1:1"},
      {"WX-C-14b", 12, 6, "2:1"}, {"WX-C-15a", 20, 2, "8:1"}, {"WX-C-15b", 17, 2, "8:1"},
      {"WX-C-16", 1, 9, "1:8"},   {"4:4", 4, 4, "1:1"}};
  for (const Case& c : cases) {
    const Fight f = fight(duelOf({.vc = c.a}, {.vc = c.d}));
    EXPECT_EQ(f.odds.attack, c.a) << c.id;
    EXPECT_EQ(f.odds.defence, c.d) << c.id;
    EXPECT_EQ(odds(f), c.expected) << c.id;
  }
}

TEST(CombatOdds, SupportAcrossACliffIsNoContact_WX_C_02_M_CONTACT_1) {
  TestMap m = duelOf({.vc = 2}, {.vc = 2});
  m.unit({.id = "L", .type = "light_infantry", .at = {1, -1}, .vc = 2});
  m.unit({.id = "Art", .side = 1, .type = "foot_artillery", .at = {2, -2}, .vc = 2});
  m.level({2, -2}, 2);
  const Fight f = fight(m);
  EXPECT_EQ(f.odds.attack, 4);
  EXPECT_EQ(odds(f), "2:1");
}

TEST(CombatOdds, OffensiveAndDefensiveSupports_WX_C_03_C_SUP_1_2) {
  TestMap m = duelOf({.vc = 2}, {.vc = 2});
  m.unit({.id = "S", .at = {1, 1}, .vc = 2});              // touches D only
  m.unit({.id = "T", .side = 1, .at = {-1, 0}, .vc = 2});  // touches A only
  const Fight f = fight(m);
  EXPECT_EQ(f.odds.attack, 4);
  EXPECT_EQ(f.odds.defence, 4);
  EXPECT_EQ(odds(f), "1:1");
}

TEST(CombatOdds, VictoriousUnitsSupportRegardless_WX_C_04_05_C_SUP_5_C_VIC_2) {
  TestMap m = duelOf({.vc = 3}, {.vc = 3});
  m.unit({.id = "DS", .side = 1, .at = {0, 1}, .vc = 3});  // defensive support: touches A only
  m.unit({.id = "V", .at = {2, -1}, .vc = 6});             // touches D and another enemy
  m.unit({.id = "E2", .side = 1, .at = {3, -1}, .vc = 1});
  Fight f = fight(m);
  EXPECT_EQ(f.odds.defence, 6);
  EXPECT_EQ(odds(f), "1:2") << "WX-C-04: V is held back by E2";
  env::addUnitFlags(f.s, unitOf(*f.sc, "V"), env::unit_flag::kVictorious);
  f.odds = env::combatOdds(f.s, unitOf(*f.sc, "A"), unitOf(*f.sc, "D"));
  EXPECT_EQ(f.odds.attack, 9);
  EXPECT_EQ(odds(f), "1:1") << "WX-C-05: 9 against 6";
}

TEST(CombatOdds, ArtilleryAndGeneralsSupportUnlessSwitched_C_SUP_7_D_9) {
  TestMap m = duelOf({.vc = 2}, {.vc = 2});
  m.unit({.id = "Gun", .type = "foot_artillery", .at = {1, 1}, .vc = 2});
  EXPECT_EQ(fight(m).odds.attack, 4);
  m.rule("artillery_and_generals_support", false);
  EXPECT_EQ(fight(m).odds.attack, 2);
}

TEST(CombatOdds, ContactWithAnyOtherEnemyPreventsSupport_WX_C_18_C_SUP_3) {
  TestMap m = duelOf({.vc = 2}, {.vc = 2});
  m.unit({.id = "X", .at = {1, 1}, .vc = 2});
  m.unit({.id = "Dem", .side = 1, .at = {2, 1}, .mo = 4});
  Fight f = fight(m);
  env::setUnitMo(f.s, unitOf(*f.sc, "Dem"), 0);
  EXPECT_EQ(env::combatOdds(f.s, unitOf(*f.sc, "A"), unitOf(*f.sc, "D")).attack, 2);
  m.rule("support_blocked_by_any_enemy", false);
  Fight g = fight(m);
  env::setUnitMo(g.s, unitOf(*g.sc, "Dem"), 0);
  EXPECT_EQ(env::combatOdds(g.s, unitOf(*g.sc, "A"), unitOf(*g.sc, "D")).attack, 4);
}

TEST(CombatOdds, DemoralisedUnitsNeverSupport_WX_C_19_C_SUP_4) {
  TestMap m = duelOf({.vc = 2}, {.vc = 2});
  m.unit({.id = "X", .at = {1, 1}, .vc = 2});
  Fight f = fight(m);
  env::setUnitMo(f.s, unitOf(*f.sc, "X"), 0);
  EXPECT_EQ(env::combatOdds(f.s, unitOf(*f.sc, "A"), unitOf(*f.sc, "D")).attack, 2);
}

TEST(CombatOdds, RiversBreakContactBridgesDoNot_WX_C_20_21_WX_T_24) {
  for (const char* crossing : {"none", "ford", "bridge"}) {
    TestMap m = duelOf({.vc = 2}, {.vc = 2});
    m.unit({.id = "X", .at = {1, 1}, .vc = 2}).water({1, 1}, {1, 0}, "major_river");
    if (std::string(crossing) != "none") m.crossing({1, 1}, {1, 0}, crossing);
    const Fight f = fight(m);
    EXPECT_EQ(f.odds.attack, std::string(crossing) == "bridge" ? 4 : 2) << crossing;
  }
}

// Modified VC of the attacker, and of an offensive support, across a stream.
TEST(TerrainEffects, StreamDivision_WX_T_01_to_10_C_TER_3) {
  const int attacker[] = {1, 1, 2, 2, 3, 4, 4, 5, 6, 6};
  const int support[] = {0, 1, 2, 2, 3, 4, 4, 5, 6, 6};
  for (int vc = 1; vc <= 10; ++vc) {
    TestMap m = duelOf({.vc = vc}, {.vc = 9});
    m.water({0, 0}, {1, 0}, "stream");
    m.unit({.id = "S", .at = {1, 1}, .vc = vc}).water({1, 1}, {1, 0}, "stream");
    const Fight f = fight(m);
    EXPECT_EQ(f.odds.units[0].vc, attacker[vc - 1]) << "attacker VC " << vc;
    EXPECT_EQ(f.odds.units[1].vc, support[vc - 1]) << "support VC " << vc;
  }
}

struct TerrainCase {
  const char* id;
  UnitSpec attacker;
  UnitSpec defender;
  std::vector<std::pair<Hex, const char*>> terrain;
  std::vector<std::pair<Hex, int>> levels;
  bool stream;
  int attack;
  int defence;
  const char* odds;
  int die_modifier;
};

TEST(TerrainEffects, WorkedExamples_WX_T_11_to_23_C_TER_1_C_TER_4) {
  const TerrainCase cases[] = {
      {"WX-T-11", {.vc = 5}, {.vc = 3}, {{{1, 0}, "woods"}}, {}, false, 5, 6, "1:2", 0},
      {"WX-T-12",
       {.vc = 5},
       {.type = "cavalry", .vc = 3},
       {{{1, 0}, "woods"}},
       {},
       false,
       5,
       3,
       "1:1",
       0},
      {"WX-T-13",
       {.vc = 4},
       {.type = "dromedary", .vc = 2},
       {{{1, 0}, "village"}},
       {},
       false,
       4,
       4,
       "1:1",
       0},
      {"WX-T-14",
       {.type = "cavalry", .vc = 5},
       {.vc = 2},
       {{{1, 0}, "fort"}},
       {},
       false,
       5,
       4,
       "1:1",
       0},
      {"WX-T-15",
       {.type = "cavalry", .vc = 5},
       {.vc = 2},
       {{{0, 0}, "fort"}},
       {},
       false,
       2,
       2,
       "1:1",
       -1},
      {"WX-T-16",
       {.type = "cavalry", .vc = 6},
       {.vc = 2},
       {{{0, 0}, "fort"}},
       {},
       true,
       2,
       2,
       "1:1",
       -1},
      {"WX-T-19", {.vc = 4}, {.vc = 4}, {}, {}, false, 4, 4, "1:1", 0},
      {"WX-T-20",
       {.vc = 4},
       {.vc = 4},
       {{{0, 0}, "marsh"}, {{1, 0}, "marsh"}},
       {},
       false,
       4,
       4,
       "1:1",
       0},
      {"WX-T-21", {.vc = 4}, {.vc = 4}, {}, {{{0, 0}, 1}}, false, 4, 4, "1:1", 1},
      {"WX-T-22",
       {.vc = 4},
       {.vc = 4},
       {{{1, 0}, "hamlet"}},
       {{{1, 0}, 1}},
       false,
       4,
       4,
       "1:1",
       -2},
      {"WX-T-23a",
       {.type = "cavalry", .vc = 9},
       {.vc = 2},
       {{{0, 0}, "fort"}},
       {},
       true,
       2,
       2,
       "1:1",
       -1},
      {"WX-T-23b",
       {.type = "cavalry", .vc = 2},
       {.vc = 2},
       {{{0, 0}, "fort"}},
       {},
       true,
       1,
       2,
       "1:2",
       -1},
      {"dune", {.vc = 4}, {.vc = 4}, {{{0, 0}, "dune"}}, {}, false, 4, 4, "1:1", -1},
  };
  for (const TerrainCase& c : cases) {
    TestMap m = duelOf(c.attacker, c.defender);
    for (const auto& [h, t] : c.terrain) m.terrain(h, t);
    for (const auto& [h, l] : c.levels) m.level(h, l);
    if (c.stream) m.water({0, 0}, {1, 0}, "stream");
    const Fight f = fight(m);
    EXPECT_EQ(f.odds.attack, c.attack) << c.id;
    EXPECT_EQ(f.odds.defence, c.defence) << c.id;
    EXPECT_EQ(odds(f), c.odds) << c.id;
    EXPECT_EQ(f.odds.dieModifier(), c.die_modifier) << c.id;
  }
}

TEST(TerrainEffects, BridgeCancelsTheStream_WX_T_19_M_SIDE_2) {
  TestMap m = duelOf({.vc = 4}, {.vc = 4});
  m.water({0, 0}, {1, 0}, "stream").crossing({0, 0}, {1, 0}, "bridge");
  EXPECT_EQ(fight(m).odds.attack, 4);
}

TEST(TerrainEffects, StreamFirstOrderSwitch_C_TER_4) {
  TestMap m = duelOf({.type = "cavalry", .vc = 9}, {.vc = 2});
  m.terrain({0, 0}, "fort")
      .water({0, 0}, {1, 0}, "stream")
      .rule("vc_modifier_order", "stream_halve_double");
  EXPECT_EQ(fight(m).odds.attack, 3) << "WX-T-23: stream first gives 3";
}

TEST(TerrainEffects, DefensiveSupportDoubledInItsOwnHex_C_TER_2) {
  TestMap m = duelOf({.vc = 6}, {.vc = 2});
  m.unit({.id = "T", .side = 1, .at = {-1, 0}, .vc = 2}).terrain({-1, 0}, "woods");
  EXPECT_EQ(fight(m).odds.defence, 6);
  m.rule("support_doubling_hex", "defender");
  EXPECT_EQ(fight(m).odds.defence, 4) << "the defender's clear hex decides";
}

TEST(CombatLegality, RiverCliffFordAndOncePerPhase_WX_T_17_18_24_C_GEN_1_2) {
  for (const char* what : {"river", "cliff", "ford"}) {
    TestMap m = duelOf({.vc = 4}, {.vc = 4});
    if (std::string(what) == "cliff") {
      m.level({1, 0}, 2);
    } else {
      m.water({0, 0}, {1, 0}, "river");
      if (std::string(what) == "ford") m.crossing({0, 0}, {1, 0}, "ford");
    }
    const Fight f = fight(m);
    EXPECT_FALSE(env::canAttack(f.s, unitOf(*f.sc, "A"), unitOf(*f.sc, "D"))) << what;
  }
  TestMap m = duelOf({.vc = 4}, {.vc = 4});
  m.water({0, 0}, {1, 0}, "river")
      .crossing({0, 0}, {1, 0}, "ford")
      .rule("ford_allows_combat", true);
  const Fight f = fight(m);
  EXPECT_TRUE(env::canAttack(f.s, unitOf(*f.sc, "A"), unitOf(*f.sc, "D"))) << "Q-C-10 switch";
  EXPECT_EQ(f.odds.attack, 2) << "a ford then divides like a stream";

  TestMap twice = duelOf({.vc = 4}, {.vc = 4});
  twice.unit({.id = "B", .at = {1, 1}, .vc = 4});
  Fight g = fight(twice);
  env::addUnitFlags(g.s, unitOf(*g.sc, "D"), env::unit_flag::kDefended);
  EXPECT_FALSE(env::canAttack(g.s, unitOf(*g.sc, "B"), unitOf(*g.sc, "D")))
      << "one attack per target";
}

TEST(CombatLegality, DemoralisedArtilleryGeneralsAndZeroStrength_C_GEN_3_4_C_RATIO_4) {
  Fight f = fight(duelOf({.vc = 4}, {.vc = 4}));
  env::setUnitMo(f.s, unitOf(*f.sc, "A"), 0);
  EXPECT_FALSE(env::canAttack(f.s, unitOf(*f.sc, "A"), unitOf(*f.sc, "D")));
  TestMap guns = duelOf({.type = "foot_artillery", .vc = 2}, {.vc = 4});
  EXPECT_TRUE(env::canAttack(fight(guns).s, 0, 1));
  guns.rule("artillery_and_generals_attack", false);
  EXPECT_FALSE(env::canAttack(fight(guns).s, 0, 1));
  TestMap zero = duelOf({.type = "cavalry", .vc = 1}, {.vc = 3});
  zero.terrain({0, 0}, "fort");
  const Fight z = fight(zero);
  EXPECT_EQ(z.odds.attack, 0);
  EXPECT_EQ(odds(z), "1:8") << "WX-C-17";
  EXPECT_TRUE(env::canAttack(z.s, 0, 1));
  zero.rule("zero_strength_attack", "forbidden");
  EXPECT_FALSE(env::canAttack(fight(zero).s, 0, 1));
}

TEST(DieModifiers, MoraleDifference_WX_D_01_to_06_C_DRM_2_3) {
  struct Case {
    const char* id;
    int mo_a, mo_d, expected;
  };
  for (const Case& c :
       {Case{"WX-D-01", 5, 2, 1}, Case{"WX-D-02", 2, 7, -2}, Case{"WX-D-03a", 4, 3, 0},
        Case{"WX-D-03b", 3, 4, 0}, Case{"WX-D-04", 6, 2, 2}}) {
    EXPECT_EQ(fight(duelOf({.mo = c.mo_a}, {.mo = c.mo_d})).odds.morale, c.expected) << c.id;
  }
  // WX-D-05: supports' morale never counts.
  TestMap m = duelOf({.mo = 5}, {.mo = 2});
  m.unit({.id = "S", .at = {1, 1}, .mo = 1}).unit({.id = "T", .side = 1, .at = {-1, 0}, .mo = 9});
  EXPECT_EQ(fight(m).odds.morale, 1);
  // WX-D-06: a general's morale is VC + radius: 2 + 3 = 5 against 3.
  TestMap g;
  g.corps(0, "I").unit(
      {.id = "A", .type = "general", .at = {0, 0}, .vc = 2, .corps = "I", .radius = 3});
  g.unit({.id = "D", .side = 1, .at = {1, 0}, .mo = 3});
  EXPECT_EQ(fight(g).odds.morale, 1);
}

}  // namespace
}  // namespace morne::test
