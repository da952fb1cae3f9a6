// The variant modules against the lines of seeds 001-003 where they once departed from them
// (docs/variants.md): no advance after a rout without pursuit, who is fresh, flank factors in a
// melee already joined, cover along a stream, rout and flight distances by arm, the tests of
// seed 001 (attack at poor odds, after fire and combat), seed 002's rally, and who pursues
// where. Each test quotes the seed line it checks.

#include <gtest/gtest.h>

#include "env/combat.h"
#include "env/error.h"
#include "env/fire.h"
#include "env/morale_model.h"
#include "env/preview.h"
#include "env/rout.h"
#include "env/rules.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;
using env::MoraleOutcome;

// A combat die face whose CRT cell at `column` (die modified by `modifier`) gives a test to
// the defender (`defender` true) or the attacker and none to the other, with no loss that
// eliminates a unit of VC `vc` or more.
int dieWithOneTest(const env::Scenario& sc, int column, int modifier, int vc, bool defender) {
  for (int d = 1; d <= 6; ++d) {
    const int row = std::clamp(d + modifier, 0, 7);
    const env::CrtCell c = sc.crt()[static_cast<size_t>(row)][static_cast<size_t>(column + 7)];
    const bool tests =
        defender ? c.defender_test && !c.attacker_test : c.attacker_test && !c.defender_test;
    if (tests && c.defender_loss < vc && c.attacker_loss < vc) return d;
  }
  return -1;
}

struct Battle {
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s;
  int attacker = -1;
  int defender = -1;
};

// `m`'s unit A (orange, phasing) attacks blue's D next to it (direction `dir`); the combatant
// the CRT tests (`defender_tests`) rolls 12 on 2d6 and routs.
Battle routInCombat(const TestMap& m, int dir, bool defender_tests) {
  Battle b{m.build(), {}};
  b.s = stateIn(*b.sc, env::Phase::kCombat, 1);
  b.attacker = unitOf(*b.sc, "A");
  b.defender = unitOf(*b.sc, "D");
  const env::CombatOdds odds = env::combatOdds(b.s, b.attacker, b.defender);
  const int vc = std::min(b.s.unit(b.attacker).vc, b.s.unit(b.defender).vc);
  const int die = dieWithOneTest(*b.sc, odds.column, odds.dieModifier(), vc, defender_tests);
  EXPECT_GT(die, 0);
  env::applyAction(b.s, env::Action::attack(b.s.unit(b.attacker).cell, dir));
  EXPECT_EQ(b.s.pending.kind, env::ChanceKind::kCombatDie);
  env::applyChance(b.s, die);
  EXPECT_EQ(b.s.pending.kind, env::ChanceKind::kMoraleTest);
  env::applyChance(b.s, 12);  // 12 exceeds every factor here
  return b;
}

// A map under the three ancient modules, blue running west and orange east.
TestMap ancientModules() {
  TestMap m;
  m.rule("morale_model", "ancient_2d6").rule("failed_test", "ancient_rout");
  m.rule("pursuit", "ancient").homeEdge(0, "west").homeEdge(1, "east");
  return m;
}

// Orange's `type` A at (1,0) makes blue's D at (0,0) rout west under the ancient modules.
TestMap ancientAttack(const std::string& type) {
  TestMap m = ancientModules();
  m.unit({.id = "D", .at = {0, 0}, .vc = 6, .ma = 3});
  m.unit({.id = "A", .side = 1, .type = type, .at = {1, 0}, .vc = 6, .ma = 5});
  return m;
}

// --- pursuit (V-PUR-1, V-PUR-2, V-PUR-3) ---

TEST(SeedPursuit, AWinnerThatDoesNotPursueStaysInItsHex_V_PUR_1) {
  // Seed 001: « Si la phalange (trop rigide) ne poursuit jamais »: no advance either.
  for (const char* type : {"infantry", "light_infantry"}) {
    const Battle b = routInCombat(ancientAttack(type), 3, true);
    EXPECT_TRUE(b.s.routed(b.defender)) << type;
    EXPECT_FALSE(b.s.pursuing(b.attacker)) << type;
    EXPECT_EQ(b.s.unit(b.attacker).cell, cellOf(*b.sc, {1, 0})) << type << " stayed";
  }
  // Without the pursuit module the winner advances after combat as in Morne Plaine.
  TestMap m = ancientAttack("infantry");
  m.rule("pursuit", "none");
  const Battle b = routInCombat(m, 3, true);
  EXPECT_EQ(b.s.unit(b.attacker).cell, cellOf(*b.sc, {0, 0}));
}

TEST(SeedPursuit, OnlyThePhasingPlayerPursuesUnlessSwitched_V_PUR_2) {
  // Seed 001: « On effectue alors les mouvements de déroute de ses unités, ainsi que les
  // mouvements de poursuite du joueur en phase ». Blue's cavalry D defends; orange's A routs.
  for (bool defender_pursues : {false, true}) {
    TestMap m = ancientModules();
    m.rule("defender_pursues", defender_pursues);
    m.unit({.id = "D", .type = "cavalry", .at = {0, 0}, .vc = 6, .ma = 5});
    m.unit({.id = "A", .side = 1, .type = "cavalry", .at = {1, 0}, .vc = 3, .ma = 5});
    const Battle b = routInCombat(m, 3, false);
    EXPECT_TRUE(b.s.routed(b.attacker));
    EXPECT_EQ(b.s.pursuing(b.defender), defender_pursues);
    if (!defender_pursues) {
      EXPECT_EQ(b.s.unit(b.defender).cell, cellOf(*b.sc, {0, 0}));
    }
  }
}

TEST(SeedPursuit, APursuerFollowsItsRouterOffTheMapUnlessSwitched_V_PUR_3) {
  // Seed 001: the pursuer moves « selon le même itinéraire »; « Les unités poursuivantes
  // peuvent sortir de la carte. Dans ce cas, elles sont considérées comme perdues ».
  for (bool follows : {true, false}) {
    TestMap m = ancientModules();
    m.rule("pursuers_follow_off_map", follows);
    m.unit({.id = "D", .at = {-4, 0}, .vc = 6, .ma = 3});  // two hexes from the west edge
    m.unit({.id = "A", .side = 1, .type = "cavalry", .at = {-3, 0}, .vc = 6, .ma = 5});
    const Battle b = routInCombat(m, 3, true);
    EXPECT_FALSE(b.s.onMap(b.defender)) << "the router left the map";
    EXPECT_EQ(b.s.onMap(b.attacker), !follows);
    if (!follows) {  // it stopped on the router's last hex, by the west edge
      EXPECT_EQ(b.sc->neighbor(b.s.unit(b.attacker).cell, 3), env::kNoCell);
    }
  }
}

TEST(SeedPursuit, ARouterOrPursuerWhoseAttackerFellBackDoesNotAdvance_V_PUR_1_V_PUR_3) {
  // Seed 001 moves a router only « en direction de son bord de table », and a pursuer follows
  // its router: neither advances into the hex its attacker left. Orange's A attacks blue's D,
  // attacks at 1:3, fails its test and retreats one hex (the one-hex retreat of failed_test
  // mp, so that D is not pursuing it either).
  enum class Order { kInOrder, kRouted, kPursuing };
  for (Order order : {Order::kInOrder, Order::kRouted, Order::kPursuing}) {
    TestMap m;
    m.rule("pursuit", "ancient").homeEdge(0, "west").homeEdge(1, "east");
    m.unit({.id = "D", .at = {0, 0}, .vc = 6, .mo = 4});
    m.unit({.id = "A", .side = 1, .at = {1, 0}, .vc = 2, .mo = 4});
    m.unit({.id = "R", .side = 1, .at = {-4, 3}, .vc = 2});  // a router D may be pursuing
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
    const int a = unitOf(*sc, "A");
    const int d = unitOf(*sc, "D");
    if (order == Order::kRouted) env::addMoraleBits(s, d, env::morale_bit::kRouted);
    if (order == Order::kPursuing) {
      env::addMoraleBits(s, unitOf(*sc, "R"), env::morale_bit::kRouted);
      env::MoraleStatus pursuing;
      pursuing.bits = env::morale_bit::kPursuing;
      pursuing.pursued = static_cast<int8_t>(unitOf(*sc, "R") + 1);
      env::setMoraleStatus(s, d, pursuing);
    }
    const env::CombatOdds odds = env::combatOdds(s, a, d);
    const int die = dieWithOneTest(*sc, odds.column, odds.dieModifier(), 2, false);
    ASSERT_GT(die, 0);
    env::applyAction(s, env::Action::attack(cellOf(*sc, {1, 0}), 3));
    env::applyChance(s, die);
    ASSERT_EQ(s.pending.kind, env::ChanceKind::kMoraleTest);
    env::applyChance(s, 9);  // d9 above A's MO 4: A retreats
    EXPECT_NE(s.unit(a).cell, cellOf(*sc, {1, 0})) << "A fell back";
    const env::Hex expected = order == Order::kInOrder ? env::Hex{1, 0} : env::Hex{0, 0};
    EXPECT_EQ(s.unit(d).cell, cellOf(*sc, expected)) << static_cast<int>(order);
  }
}

// --- melee factors (V-MEL-2) ---

TEST(SeedMeleeFactors, FreshTroopsAreInfantryAndCavalryThatNeverFought_V_MEL_2) {
  // Seed 003: « Troupe fraîche (infanterie, cavalerie) 1 », fresh being « Unité n’ayant
  // effectué aucun combat au corps à corps ni de marche forcée ».
  TestMap m;
  m.rule("melee_factors", "seed003");
  m.unit({.id = "G", .type = "foot_artillery", .at = {-1, 0}});
  m.unit({.id = "D", .side = 1, .at = {0, 0}});
  m.unit({.id = "I", .at = {-1, 1}});  // next to G: the same front, no flank
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  const int g = unitOf(*sc, "G");
  const int d = unitOf(*sc, "D");
  const int i = unitOf(*sc, "I");
  EXPECT_EQ(env::combatOdds(s, g, d).melee, -1) << "artillery is never fresh";
  EXPECT_EQ(env::combatOdds(s, i, d).melee, 0) << "both fresh";
  env::MoraleStatus rested;  // fought once, its fatigue rested back to 0
  rested.bits = env::morale_bit::kFoughtBefore;
  env::setMoraleStatus(s, i, rested);
  EXPECT_EQ(env::combatOdds(s, i, d).melee, -1) << "no longer fresh";
}

TEST(SeedMeleeFactors, FlankOrRearOnADefenderAlreadyInAMelee_V_MEL_2) {
  // Seed 003, infantry: « Attaquant de flanc ou de dos(5) 2 », « Attaquant de flanc ou de dos
  // dans une mêlée 1 »; cavalry: « Prise de flanc ou de dos au premier tour 3 », « Idem dans
  // une mêlée déjà constituée 2 ».
  TestMap m;
  m.rule("melee_factors", "seed003");
  m.unit({.id = "C", .type = "cavalry", .at = {-1, 0}});
  m.unit({.id = "D", .side = 1, .at = {0, 0}});
  m.unit({.id = "I", .at = {1, 0}});  // engages D from the other side
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  const int c = unitOf(*sc, "C");
  const int d = unitOf(*sc, "D");
  const int i = unitOf(*sc, "I");
  EXPECT_EQ(env::combatOdds(s, c, d).melee, 3);
  EXPECT_EQ(env::combatOdds(s, i, d).melee, 2);
  env::addMoraleBits(s, d, env::morale_bit::kFought);  // D has fought this player-turn
  EXPECT_EQ(env::combatOdds(s, c, d).melee, 2);
  EXPECT_EQ(env::combatOdds(s, i, d).melee, 1);
  // Artillery in D's rear gets no flank factor (and is not fresh).
  TestMap guns;
  guns.rule("melee_factors", "seed003");
  guns.unit({.id = "C", .type = "cavalry", .at = {-1, 0}});
  guns.unit({.id = "D", .side = 1, .at = {0, 0}});
  guns.unit({.id = "G", .type = "horse_artillery", .at = {1, 0}});
  const auto gsc = guns.build();
  const env::GameState gs = stateIn(*gsc, env::Phase::kCombat, 0);
  EXPECT_EQ(env::combatOdds(gs, unitOf(*gsc, "G"), unitOf(*gsc, "D")).melee, -1);
}

// --- graded morale (V-MOR-5) ---

TEST(SeedGradedMorale, AUnitAlongAStreamCountsAsInLightCover_V_MOR_5) {
  // Seed 002: « Unité en abri léger ou bordant un ruisseau +1 ».
  for (const char* terrain : {"clear", "woods", "village"}) {
    for (bool stream : {false, true}) {
      TestMap m;
      m.rule("morale_model", "graded_d6");
      m.unit({.id = "U", .at = {0, 0}, .mo = 5});
      m.unit({.id = "E", .side = 1, .at = {3, 0}});
      m.terrain({0, 0}, terrain);
      if (stream) m.water({0, 0}, {0, 1}, "stream");
      const auto sc = m.build();
      const env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
      const env::MoraleTest t{unitOf(*sc, "U"), env::TestOccasion::kCharge, -1, 0};
      const int cover = std::string(terrain) == "clear"   ? (stream ? 1 : 0)
                        : std::string(terrain) == "woods" ? 1
                                                          : 3;
      EXPECT_EQ(env::gradedScoreWithoutDie(s, t), cover) << terrain << (stream ? " + stream" : "");
    }
  }
}

// --- graded routs (V-ROUT-6) and rally (V-ROUT-5) ---

TEST(SeedGradedRout, DistancesByArmAtThePacesPerHex_V_ROUT_6) {
  // Seed 002, « Déroute »: infantry 110, heavy cavalry 190, light cavalry 220 paces; « Fuite »:
  // 160, 250, 300. At the default 55 paces a hex, rounded to the nearest hex.
  EXPECT_EQ(env::gradedRunHexes(110, 55), 2);
  EXPECT_EQ(env::gradedRunHexes(190, 55), 3);
  EXPECT_EQ(env::gradedRunHexes(220, 55), 4);
  EXPECT_EQ(env::gradedRunHexes(160, 55), 3);
  EXPECT_EQ(env::gradedRunHexes(250, 55), 5);
  EXPECT_EQ(env::gradedRunHexes(300, 55), 5);
  EXPECT_EQ(env::gradedRunHexes(110, 200), 1) << "at least one hex";
  struct Arm {
    const char* type;
    const char* cavalry;
    int hexes;
  };
  for (const Arm& arm :
       {Arm{"infantry", "", 2}, Arm{"cavalry", "heavy", 3}, Arm{"cavalry", "light", 4},
        Arm{"cavalry", "", 4}, Arm{"foot_artillery", "", 2}}) {
    TestMap m;
    m.rule("failed_test", "graded").rule("morale_model", "graded_d6").homeEdge(0, "west");
    m.unit({.id = "U", .type = arm.type, .at = {0, 0}, .ma = 5, .cavalry = arm.cavalry});
    m.unit({.id = "E", .side = 1, .at = {1, 0}});
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
    const int u = unitOf(*sc, "U");
    env::applyMoraleOutcome(s, u, MoraleOutcome::kRout, unitOf(*sc, "E"), cellOf(*sc, {1, 0}),
                            nullptr, nullptr);
    ASSERT_TRUE(s.onMap(u));
    EXPECT_EQ(sc->distance(s.unit(u).cell, cellOf(*sc, {0, 0})), arm.hexes)
        << arm.type << " " << arm.cavalry;
  }
}

TEST(SeedGradedRout, OnlyCavalryIsHeavyOrLight_V_ROUT_6) {
  TestMap m;
  m.unit({.id = "U", .at = {0, 0}, .cavalry = "heavy"});
  m.unit({.id = "E", .side = 1, .at = {3, 0}});
  try {
    m.build();
    FAIL() << "infantry cannot be heavy cavalry";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("/cavalry"), std::string::npos) << e.what();
  }
}

// Blue's routed D at (0,0) at the end of blue's combat phase under the graded modules, with
// `others` around it; the enemy stands far away.
env::GameState gradedRouterAtRally(const std::vector<UnitSpec>& others,
                                   std::shared_ptr<const env::Scenario>& sc) {
  TestMap m;
  m.rule("failed_test", "graded").rule("morale_model", "graded_d6").homeEdge(0, "west");
  m.unit({.id = "D", .at = {0, 0}, .vc = 6, .ma = 3});
  m.unit({.id = "E", .side = 1, .at = {5, 0}});
  m.corps(0, "I");
  for (const UnitSpec& u : others) m.unit(u);
  sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  env::addMoraleBits(s, unitOf(*sc, "D"), env::morale_bit::kRouted);
  return s;
}

TEST(SeedGradedRout, ARouterRalliesOnlyByAFormedFriendOrAGeneral_V_ROUT_5) {
  // Seed 002: « La déroute ne peut être arrêtée que par un test de moral effectué : – à la fin
  // d’une période où l’unité est passée à moins de 15025 10015 pas d’une unité amie en
  // formation (autre que tirailleurs) [...] – au moment où l’unité est rejointe par un général ».
  struct Case {
    const char* what;
    std::vector<UnitSpec> others;
    bool tests;
  };
  const Case cases[] = {
      {"alone", {}, false},
      {"next to line infantry", {{.id = "F", .at = {0, 1}}}, true},
      {"next to cavalry", {{.id = "F", .type = "cavalry", .at = {0, 1}}}, true},
      {"next to skirmishers only", {{.id = "F", .type = "light_infantry", .at = {0, 1}}}, false},
      {"next to a battery only", {{.id = "F", .type = "foot_artillery", .at = {0, 1}}}, false},
      {"joined by a general", {{.id = "G", .type = "general", .at = {0, 1}, .corps = "I"}}, true},
  };
  for (const Case& c : cases) {
    std::shared_ptr<const env::Scenario> sc;
    env::GameState s = gradedRouterAtRally(c.others, sc);
    const int d = unitOf(*sc, "D");
    env::applyAction(s, env::Action::end());
    const bool tested = s.pending.kind == env::ChanceKind::kMoraleCheck && s.pending.unit == d;
    EXPECT_EQ(tested, c.tests) << c.what;
    if (!c.tests) {
      EXPECT_NE(s.unit(d).cell, cellOf(*sc, {0, 0})) << c.what << ": it runs on";
    }
  }
  // A router that passed a formed friend during the player-turn tests where it ends.
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s = gradedRouterAtRally({}, sc);
  env::addMoraleBits(s, unitOf(*sc, "D"), env::morale_bit::kSawFormedFriend);
  env::applyAction(s, env::Action::end());
  EXPECT_EQ(s.pending.kind, env::ChanceKind::kMoraleCheck);
}

TEST(SeedGradedRout, ARoutPastAFormedFriendMarksTheRouter_V_ROUT_5) {
  TestMap m;
  m.rule("failed_test", "graded").rule("morale_model", "graded_d6").homeEdge(0, "west");
  m.unit({.id = "U", .at = {0, 0}, .ma = 3});
  m.unit({.id = "E", .side = 1, .at = {1, 0}});
  m.unit({.id = "F", .at = {-2, 0}});  // beside the rout path, two hexes west
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const int u = unitOf(*sc, "U");
  env::applyMoraleOutcome(s, u, MoraleOutcome::kRout, unitOf(*sc, "E"), cellOf(*sc, {1, 0}),
                          nullptr, nullptr);
  EXPECT_TRUE(s.routed(u));
  EXPECT_TRUE(s.hasMorale(u, env::morale_bit::kSawFormedFriend));
}

// --- when seed 001's 2d6 test happens (V-MOR-6) ---

// Blue's infantry A (VC 2) next to orange's D (VC 6): a 1:3 attack under ancient_2d6.
TestMap poorOdds(const std::string& attacker_type) {
  TestMap m;
  m.rule("morale_model", "ancient_2d6").rule("failed_test", "ancient_rout");
  m.homeEdge(0, "west").homeEdge(1, "east");
  m.unit({.id = "A", .type = attacker_type, .at = {-1, 0}, .vc = 2, .mo = 4});
  m.unit({.id = "D", .side = 1, .at = {0, 0}, .vc = 6});
  return m;
}

TEST(SeedMoraleTests, InfantryTestsBeforeAttackingAtOneToTwoOrWorse_V_MOR_6) {
  // Seed 001: « Toute unité d'infanterie souhaitant attaquer un ennemi à 1/2 ou moins. Un
  // échec interdit l'attaque. »
  for (int die : {2, 12}) {
    const auto sc = poorOdds("infantry").build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    const int a = unitOf(*sc, "A");
    const int d = unitOf(*sc, "D");
    ASSERT_LE(env::combatOdds(s, a, d).column, -1);
    env::applyAction(s, env::Action::attack(cellOf(*sc, {-1, 0}), 0));
    ASSERT_EQ(s.pending.kind, env::ChanceKind::kMoraleCheck);
    EXPECT_EQ(s.pending.unit, a);
    EXPECT_EQ(s.pending.target, d);
    env::EventLog log;
    env::resolvePendingChance(s, die, &log);
    if (die == 2) {
      EXPECT_EQ(s.pending.kind, env::ChanceKind::kCombatDie) << "passed: the combat goes on";
      EXPECT_TRUE(s.combat.active());
    } else {
      EXPECT_FALSE(s.isChanceNode()) << "failed: no attack";
      EXPECT_FALSE(s.combat.active());
      EXPECT_TRUE(s.has(a, env::unit_flag::kAttacked));
      EXPECT_FALSE(s.has(d, env::unit_flag::kDefended)) << "D was not attacked";
      bool refused = false;
      for (const env::Event& e : log) refused |= e.type == env::EventType::kAttackRefused;
      EXPECT_TRUE(refused);
    }
  }
  // Dromedaries fight as infantry (U-TYPE-3, U-TYPE-4), so they test too; the seed names no
  // other arm.
  {
    const auto sc = poorOdds("dromedary").build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    env::applyAction(s, env::Action::attack(cellOf(*sc, {-1, 0}), 0));
    EXPECT_EQ(s.pending.kind, env::ChanceKind::kMoraleCheck) << "a dromedary unit tests";
  }
  // The preview says how likely the attack is refused: 2d6 above A's factor 6 (MO 4 + 2).
  const auto sc = poorOdds("infantry").build();
  const env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  const env::CombatPreview p = env::previewCombat(s, env::Action::attack(cellOf(*sc, {-1, 0}), 0));
  EXPECT_EQ(p.attack_refused.num * 36, p.attack_refused.den * 21);
}

TEST(SeedMoraleTests, NoTestToAttackARouterFromTheFlankOrWithCavalry_V_MOR_6) {
  // « Notez qu'il n'est pas nécessaire de tester son moral pour attaquer un ennemi en déroute
  // ou de flanc. » Only infantry tests; Morne Plaine's own d9 model has no such test.
  auto firstEvent = [](const TestMap& m, bool routed) {
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    if (routed) env::addMoraleBits(s, unitOf(*sc, "D"), env::morale_bit::kRouted);
    env::applyAction(s, env::Action::attack(cellOf(*sc, {-1, 0}), 0));
    return s.pending.kind;
  };
  EXPECT_EQ(firstEvent(poorOdds("cavalry"), false), env::ChanceKind::kCombatDie);
  EXPECT_EQ(firstEvent(poorOdds("infantry"), true), env::ChanceKind::kCombatDie);
  TestMap flank = poorOdds("infantry");
  flank.unit({.id = "B", .at = {1, 0}, .vc = 1});  // D faces B: A comes from its rear
  EXPECT_EQ(firstEvent(flank, false), env::ChanceKind::kCombatDie);
  TestMap mp = poorOdds("infantry");
  mp.rule("morale_model", "mp").rule("failed_test", "mp");
  EXPECT_EQ(firstEvent(mp, false), env::ChanceKind::kCombatDie);
}

TEST(SeedMoraleTests, AfterEveryFireAndCombatBySwitch_V_MOR_6) {
  // Seed 001: « Toute unité suite à un tir ou un combat »; « le joueur en défense fait les tests
  // de moral nécessaires ». Switch ancient_tests: every_fire_and_combat (default: the CRT's
  // asterisk, Morne Plaine's occasions).
  for (const char* tests : {"crt_asterisk", "every_fire_and_combat"}) {
    const bool every = std::string(tests) == "every_fire_and_combat";
    TestMap m;
    m.rule("morale_model", "ancient_2d6").rule("failed_test", "ancient_rout");
    m.rule("ancient_tests", tests).homeEdge(0, "west").homeEdge(1, "east");
    m.unit({.id = "G", .type = "foot_artillery", .at = {-2, 0}, .vc = 3});
    m.unit({.id = "T", .side = 1, .at = {1, 0}, .vc = 6, .ma = 3});
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kBombardment, 0);
    const int t = unitOf(*sc, "T");
    env::declareFire(s, unitOf(*sc, "G"), t, nullptr);
    while (s.pending.kind == env::ChanceKind::kFireDie ||
           s.pending.kind == env::ChanceKind::kFireCoin) {
      env::resolvePendingChance(s, 1, nullptr);
    }
    EXPECT_EQ(s.pending.kind == env::ChanceKind::kMoraleCheck, every) << tests;
    if (every) {
      EXPECT_EQ(s.pending.unit, t);
      env::resolvePendingChance(s, 12, nullptr);
      EXPECT_TRUE(s.routed(t)) << "a failure is a rout";
      EXPECT_NE(s.unit(t).cell, cellOf(*sc, {1, 0}));
    }
  }
  // Combat: the defender tests even where the CRT gives no asterisk.
  for (const char* tests : {"crt_asterisk", "every_fire_and_combat"}) {
    TestMap m;
    m.rule("morale_model", "ancient_2d6").rule("failed_test", "ancient_rout");
    m.rule("ancient_tests", tests);
    m.unit({.id = "A", .side = 1, .at = {1, 0}, .vc = 6});
    m.unit({.id = "D", .at = {0, 0}, .vc = 6});
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
    const env::CombatOdds odds = env::combatOdds(s, 1, 0);
    int quiet = -1;  // a die with no test for anyone and no elimination
    for (int d = 1; d <= 6 && quiet < 0; ++d) {
      const int row = std::clamp(d + odds.dieModifier(), 0, 7);
      const env::CrtCell c =
          sc->crt()[static_cast<size_t>(row)][static_cast<size_t>(odds.column + 7)];
      if (!c.attacker_test && !c.defender_test && c.defender_loss < 6 && c.attacker_loss < 6)
        quiet = d;
    }
    ASSERT_GT(quiet, 0);
    env::applyAction(s, env::Action::attack(cellOf(*sc, {1, 0}), 3));
    env::applyChance(s, quiet);
    const bool every = std::string(tests) == "every_fire_and_combat";
    EXPECT_EQ(s.pending.kind == env::ChanceKind::kMoraleTest, every) << tests;
    if (every) {
      EXPECT_EQ(s.pending.unit, unitOf(*sc, "D"));
    }
  }
}

}  // namespace
}  // namespace morne::test
