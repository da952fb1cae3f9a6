// The variant rule modules (docs/variants.md): the morale models against the seeds' tables
// (V-MOR-*), routs on constructed maps (V-ROUT-*), the ancient pursuit (V-PUR-*) and seed
// 003's melee factors (V-MEL-*). The tables below are transcribed from the seeds' French text
// independently of env/morale_model.cpp.

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "env/combat.h"
#include "env/error.h"
#include "env/io/notation.h"
#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/morale_model.h"
#include "env/preview.h"
#include "env/rout.h"
#include "env/rules.h"
#include "env/turn.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using env::Hex;
using env::MoraleOutcome;

// The exact probability, in 36ths, that a test of `t` passes (ends in obey).
int passIn36ths(const env::GameState& s, const env::MoraleTest& t) {
  env::ChanceList outcomes;
  env::moraleTestOutcomes(s.sc().rules(), outcomes);
  int num = 0;
  for (const env::ChanceOutcome& o : outcomes) {
    EXPECT_EQ(o.den, 36);
    if (env::moraleOutcome(s, t, o.value) == MoraleOutcome::kObey) num += o.num;
  }
  return num;
}

TEST(MoraleModel, TwoD6PassProbabilitiesForFactors5To8_V_MOR_2) {
  // Seed 001: "un facteur de moral qui ne doit pas être dépassé (en lançant 2 dés)".
  const int expected[] = {10, 15, 21, 26};
  for (int factor = 5; factor <= 8; ++factor) {
    TestMap m;
    m.rule("morale_model", "ancient_2d6");
    m.unit({.id = "U", .at = {0, 0}, .morale_factor = factor});
    m.unit({.id = "E", .side = 1, .at = {3, 0}});
    const auto sc = m.build();
    const env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
    EXPECT_EQ(passIn36ths(s, {unitOf(*sc, "U"), env::TestOccasion::kCombat, -1, 0}),
              expected[factor - 5])
        << "factor " << factor;
  }
}

TEST(MoraleModel, TwoD6FactorDefaultsToMoPlusOffset_V_MOR_2) {
  TestMap m;
  m.rule("morale_model", "ancient_2d6").rule("ancient_factor_offset", 3);
  m.unit({.id = "U", .at = {0, 0}, .mo = 4});
  m.unit({.id = "E", .side = 1, .at = {3, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const int u = unitOf(*sc, "U");
  EXPECT_EQ(env::ancientFactor(s, {u, env::TestOccasion::kCombat, -1, 0}), 7);
  env::setUnitMo(s, u, 2);  // two MO points lost: the factor drops with them (switch)
  EXPECT_EQ(env::ancientFactor(s, {u, env::TestOccasion::kCombat, -1, 0}), 5);
}

TEST(MoraleModel, TwoD6LeaderAndPursuitModifiers_V_MOR_3) {
  // Seed 001: "+1 : si le leader est dans un rayon de 2 hex", "+2 : si le leader est dans la
  // pile de l'unité" (adjacent here), "-3 : si le leader de l'armée est tué", "-2 : pour une
  // unité qui poursuit".
  for (const auto& [general_at, modifier] :
       std::vector<std::pair<Hex, int>>{{{1, 0}, 2}, {{2, 0}, 1}, {{3, 0}, 0}}) {
    TestMap m;
    m.rule("morale_model", "ancient_2d6").corps(0, "I");
    m.unit({.id = "U", .at = {0, 0}, .corps = "I", .morale_factor = 6});
    m.unit({.id = "G", .type = "general", .at = general_at, .corps = "I"});
    m.unit({.id = "E", .side = 1, .at = {-3, 0}});
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
    const env::MoraleTest t{unitOf(*sc, "U"), env::TestOccasion::kCombat, -1, 0};
    EXPECT_EQ(env::ancientFactor(s, t), 6 + modifier);
    env::addMoraleBits(s, t.unit, env::morale_bit::kPursuing);
    EXPECT_EQ(env::ancientFactor(s, t), 6 + modifier - 2);
    env::clearMoraleBits(s, t.unit, env::morale_bit::kPursuing);
    env::setUnitCell(s, unitOf(*sc, "G"), env::kNoCell);  // the leader is killed
    EXPECT_EQ(env::ancientFactor(s, t), 3);
  }
}

// Seed 002's result table as printed (Les Aigles, "Résultat du dé"), one line per band.
constexpr const char* kSeedTable =
    "11 ou plus | Obéir | Obéir | Avance incontrôlée | Avance incontrôlée | Avance incontrôlée | "
    "Avance incontrôlée | Avance incontrôlée\n"
    "9 ou 10 | Obéir | Obéir | Obéir | Avance incontrôlée | Avance incontrôlée | Avance "
    "incontrôlée | Avance incontrôlée\n"
    "7 ou 8 | Obéir | Obéir | Obéir | Obéir | Obéir | Obéir | Avance incontrôlée\n"
    "5 ou 6 | Obéir | Obéir | Obéir | Obéir | Obéir | Obéir | Obéir\n"
    "3 ou 4 | Obéir | Obéir | Obéir | Obéir | Obéir | Arrêt | Obéir\n"
    "1 ou 2 | Obéir | Obéir | Obéir | Obéir | Arrêt | Arrêt | Retraite\n"
    "0 | Obéir | Obéir | Obéir | Arrêt | Retraite | Retraite | Déroute\n"
    "-1 ou -2 | Arrêt | Arrêt | Arrêt | Retraite | Déroute | Déroute | Fuite\n"
    "-3 ou -4 | Retraite | Retraite | Retraite | Déroute | Déroute | Fuite | Fuite\n"
    "-5 ou -6 | Retraite | Déroute | Déroute | Fuite | Fuite | Fuite | Fuite\n"
    "-7 ou moins | Retraite | Déroute | Fuite | Fuite | Fuite | Fuite | Fuite\n";

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, '|')) {
    const size_t a = cell.find_first_not_of(' ');
    const size_t b = cell.find_last_not_of(' ');
    out.push_back(cell.substr(a, b - a + 1));
  }
  return out;
}

TEST(MoraleModel, GradedTableCellByCell_V_MOR_4) {
  const std::map<std::string, MoraleOutcome> kFrench = {
      {"Obéir", MoraleOutcome::kObey},   {"Avance incontrôlée", MoraleOutcome::kUncontrolled},
      {"Arrêt", MoraleOutcome::kHalt},   {"Retraite", MoraleOutcome::kRetreat},
      {"Déroute", MoraleOutcome::kRout}, {"Fuite", MoraleOutcome::kFlight}};
  std::stringstream table(kSeedTable);
  std::string line;
  int checked = 0;
  while (std::getline(table, line)) {
    const std::vector<std::string> row = cells(line);
    ASSERT_EQ(row.size(), 8u) << line;
    // The band's scores: "11 ou plus", "9 ou 10", "0", "-7 ou moins".
    std::vector<int> scores;
    std::stringstream band(row[0]);
    int low = 0;
    band >> low;
    std::string word, rest;
    band >> word >> rest;
    if (word.empty()) {
      scores = {low};
    } else if (rest == "plus") {
      scores = {low, low + 1, low + 10};
    } else if (rest == "moins") {
      scores = {low, low - 1, low - 10};
    } else {
      scores = {low, std::stoi(rest)};
    }
    for (int q = 0; q < env::kNumQualities; ++q) {
      for (int score : scores) {
        EXPECT_EQ(env::gradedResult(static_cast<env::Quality>(q), score), kFrench.at(row[q + 1]))
            << "score " << score << ", quality " << env::qualityName(static_cast<env::Quality>(q));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 7 * 23);
}

TEST(MoraleModel, RemainingStrengthTableCellByCell_V_MOR_5) {
  // Seed 002, "Pertes": rows 90 % .. 10 %, columns guard .. irregular.
  const int table[9][7] = {{0, 0, 0, 0, -1, -1, -1},        {0, 0, -1, -1, -2, -3, -3},
                           {-1, -1, -1, -2, -3, -4, -5},    {-1, -2, -2, -3, -4, -5, -6},
                           {-2, -3, -4, -5, -6, -7, -7},    {-2, -4, -5, -6, -7, -8, -9},
                           {-3, -5, -6, -7, -8, -9, -10},   {-3, -6, -7, -8, -9, -11, -11},
                           {-4, -7, -9, -10, -11, -12, -13}};
  for (int row = 0; row < 9; ++row) {
    const int remaining = 9 - row;  // tenths of the starting VC (initial VC 10)
    for (int q = 0; q < env::kNumQualities; ++q) {
      EXPECT_EQ(env::remainingStrengthModifier(static_cast<env::Quality>(q), remaining, 10),
                table[row][q]);
    }
  }
  EXPECT_EQ(env::remainingStrengthModifier(env::Quality::kIrregular, 10, 10), 0);
  EXPECT_EQ(env::remainingStrengthModifier(env::Quality::kRegular, 3, 4), -2) << "75 %: 70 % row";
}

TEST(MoraleModel, GradedScoreFromHexFacts_V_MOR_5) {
  TestMap m;
  m.rule("morale_model", "graded_d6");
  m.unit({.id = "U", .at = {0, 0}, .mo = 5, .quality = "veteran"});
  m.unit({.id = "E", .side = 1, .at = {1, 0}});  // the responsible enemy, in front (east)
  m.terrain({0, 0}, "village");
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const int u = unitOf(*sc, "U");
  const int e = unitOf(*sc, "E");
  // base MO 5 - 5, village +3, one enemy and no friend in contact -2, lost a melee -1.
  const env::MoraleTest t{u, env::TestOccasion::kCombat, e, 0};
  EXPECT_EQ(env::gradedScoreWithoutDie(s, t), 0 + 3 - 2 - 1);
  EXPECT_EQ(env::moraleOutcome(s, t, 1), MoraleOutcome::kObey);  // score 1: veteran obeys
  env::addMoraleBits(s, u, env::morale_bit::kRouted);
  EXPECT_EQ(env::gradedScoreWithoutDie(s, t), 0 + 3 - 2 - 1 - 4) << "routed -4";
}

TEST(MoraleModel, GradedFlankAndRearRelativeToTheResponsibleEnemy_V_MOR_5) {
  TestMap m;
  m.rule("morale_model", "graded_d6");
  m.unit({.id = "U", .at = {0, 0}, .mo = 5});
  m.unit({.id = "E", .side = 1, .at = {1, 0}});   // east: the front
  m.unit({.id = "R", .side = 1, .at = {-1, 0}});  // west: the rear, -3
  m.unit({.id = "F", .side = 1, .at = {0, -1}});  // north-west: a flank, -2
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const env::MoraleTest t{unitOf(*sc, "U"), env::TestOccasion::kCharge, unitOf(*sc, "E"), 0};
  // base 0, three enemies around -2, rear -3, flank -2.
  EXPECT_EQ(env::gradedScoreWithoutDie(s, t), -2 - 3 - 2);
}

// --- routs (V-ROUT-3) on constructed maps: blue runs west, the enemy E stands east ---

struct RoutCase {
  const char* what;
  std::vector<UnitSpec> others;  // units around U at (0,0)
  std::vector<Hex> dunes;
  std::vector<Hex> expected;  // the path
  bool leaves_map = false;
};

env::RoutPath routOf(const RoutCase& c, std::shared_ptr<const env::Scenario>& sc,
                     env::GameState& s) {
  TestMap m;
  m.rule("failed_test", "ancient_rout").homeEdge(0, "west");
  m.unit({.id = "U", .at = {0, 0}, .ma = 3});
  m.unit({.id = "E", .side = 1, .at = {1, 0}});
  for (const UnitSpec& u : c.others) m.unit(u);
  for (Hex h : c.dunes) m.terrain(h, "dune");
  sc = m.build();
  s = stateIn(*sc, env::Phase::kCombat, 1);
  for (const UnitSpec& u : c.others) {
    if (u.id.rfind("routed", 0) == 0)
      env::addMoraleBits(s, unitOf(*sc, u.id), env::morale_bit::kRouted);
  }
  return env::routPath(s, unitOf(*sc, "U"), 3, false, cellOf(*sc, {1, 0}));
}

TEST(Rout, PathPriorities_V_ROUT_3) {
  // From (0,0) on an even row the hexes nearer the west edge are W (-1,0), NW (0,-1) and
  // SW (-1,1). Dunes (which routs never enter) close some of them.
  const RoutCase cases[] = {
      {"the full allowance towards its edge, south first on ties",
       {},
       {},
       {{-1, 1}, {-2, 1}, {-3, 1}}},
      {"empty hexes before friends",
       {{.id = "F", .at = {-1, 1}}},
       {{0, -1}},
       {{-1, 0}, {-2, 1}, {-3, 1}}},
      {"routed friends before other friends",
       {{.id = "routed1", .type = "light_infantry", .at = {-1, 1}},
        {.id = "F", .type = "cavalry", .at = {-1, 0}}},
       {{0, -1}},
       {{-1, 1}, {-2, 1}, {-3, 1}}},
      {"other friends before line infantry",
       {{.id = "L", .at = {-1, 1}}, {.id = "F", .type = "cavalry", .at = {-1, 0}}},
       {{0, -1}},
       {{-1, 0}, {-2, 1}, {-3, 1}}},
      {"enemy routers only as a last resort; enemies in order never",
       {{.id = "routed2", .side = 1, .at = {-1, 1}}, {.id = "O", .side = 1, .at = {-1, 0}}},
       {{0, -1}},
       {{-1, 1}, {-2, 1}, {-3, 1}}},
      {"sideways (no farther from its edge) when nothing nearer is open",
       {{.id = "O", .side = 1, .at = {-1, 0}}, {.id = "P", .side = 1, .at = {-1, 1}}},
       {{0, -1}, {1, -1}},
       {{0, 1}, {-1, 2}, {-2, 3}}},
      {"surrounded by enemies in order and dunes: it does not move",
       {{.id = "O", .side = 1, .at = {-1, 0}},
        {.id = "P", .side = 1, .at = {-1, 1}},
        {.id = "S", .side = 1, .at = {0, 1}}},
       {{0, -1}, {1, -1}},
       {}},
  };
  for (const RoutCase& c : cases) {
    std::shared_ptr<const env::Scenario> sc;
    env::GameState s;
    const env::RoutPath path = routOf(c, sc, s);
    std::vector<env::CellId> expected;
    for (Hex h : c.expected) expected.push_back(cellOf(*sc, h));
    EXPECT_EQ(std::vector<env::CellId>(path.cells.begin(), path.cells.end()), expected) << c.what;
    EXPECT_FALSE(path.leaves_map) << c.what;
  }
}

TEST(Rout, RunsOffTheMapByItsOwnEdgeAndIsLost_V_ROUT_3) {
  TestMap m;
  m.rule("failed_test", "ancient_rout").homeEdge(0, "west");
  m.unit({.id = "U", .at = {-4, 0}, .ma = 3});  // column 2 of the 13x13 map
  m.unit({.id = "E", .side = 1, .at = {-3, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const int u = unitOf(*sc, "U");
  env::EventLog log;
  env::applyMoraleOutcome(s, u, MoraleOutcome::kRout, unitOf(*sc, "E"), cellOf(*sc, {-3, 0}),
                          nullptr, &log);
  EXPECT_FALSE(s.onMap(u));
  bool left = false;
  for (const env::Event& e : log) left = left || (e.type == env::EventType::kRout && e.b == 1);
  EXPECT_TRUE(left);
}

TEST(Rout, EndsBeyondAnOccupiedHexAndFriendsPassedThroughTest_V_ROUT_3_V_ROUT_4) {
  TestMap m;
  m.rule("failed_test", "ancient_rout").rule("morale_model", "ancient_2d6").homeEdge(0, "west");
  m.unit({.id = "U", .at = {0, 0}, .ma = 1});
  m.unit({.id = "E", .side = 1, .at = {1, 0}});
  m.unit({.id = "F", .type = "cavalry", .at = {-1, 1}});
  m.terrain({0, -1}, "dune");
  m.terrain({-1, 0}, "dune");
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const int u = unitOf(*sc, "U");
  const int f = unitOf(*sc, "F");
  env::applyMoraleOutcome(s, u, MoraleOutcome::kRout, unitOf(*sc, "E"), cellOf(*sc, {1, 0}),
                          nullptr, nullptr);
  // One point of allowance, but a rout may not end on F's hex: it runs on to the next one.
  EXPECT_EQ(sc->distance(s.unit(u).cell, cellOf(*sc, {0, 0})), 2);
  EXPECT_TRUE(s.routed(u));
  EXPECT_TRUE(s.hasMorale(f, env::morale_bit::kMustTest));
  // The passed unit's test comes next; a failure routs it in place.
  ASSERT_TRUE(env::startQueuedTest(s));
  EXPECT_EQ(s.pending.kind, env::ChanceKind::kMoraleCheck);
  EXPECT_EQ(s.pending.unit, f);
  const env::CellId f_cell = s.unit(f).cell;
  env::resolvePendingChance(s, 12, nullptr);
  EXPECT_TRUE(s.routed(f));
  EXPECT_EQ(s.unit(f).cell, f_cell);
}

TEST(Rout, GradedResultsMoveByTheirHexes_V_ROUT_6) {
  for (const auto& [outcome, hexes, on_map] :
       std::vector<std::tuple<MoraleOutcome, int, bool>>{{MoraleOutcome::kRetreat, 1, true},
                                                         {MoraleOutcome::kRout, 2, true},
                                                         {MoraleOutcome::kFlight, 3, false}}) {
    TestMap m;
    m.rule("failed_test", "graded").rule("morale_model", "graded_d6").homeEdge(0, "west");
    m.unit({.id = "U", .at = {0, 0}, .ma = 3});
    m.unit({.id = "E", .side = 1, .at = {1, 0}});
    const auto sc = m.build();
    env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
    const int u = unitOf(*sc, "U");
    env::EventLog log;
    env::applyMoraleOutcome(s, u, outcome, unitOf(*sc, "E"), cellOf(*sc, {1, 0}), nullptr, &log);
    EXPECT_EQ(s.onMap(u), on_map) << env::moraleOutcomeName(outcome);
    if (on_map) {
      EXPECT_EQ(sc->distance(s.unit(u).cell, cellOf(*sc, {0, 0})), hexes);
      EXPECT_EQ(s.routed(u), outcome == MoraleOutcome::kRout);
    }
  }
  // Halt: no move in the unit's next movement phase.
  TestMap m;
  m.rule("failed_test", "graded").rule("morale_model", "graded_d6");
  m.unit({.id = "U", .at = {0, 0}});
  m.unit({.id = "E", .side = 1, .at = {1, 0}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const int u = unitOf(*sc, "U");
  EXPECT_FALSE(
      env::applyMoraleOutcome(s, u, MoraleOutcome::kHalt, -1, env::kNoCell, nullptr, nullptr));
  env::setHeader(s, 1, 0, env::Phase::kMovement);
  env::prepareMovementPhase(s);
  EXPECT_EQ(s.unit(u).mp, 0);
  EXPECT_FALSE(s.hasMorale(u, env::morale_bit::kHaltHeld)) << "one movement phase only";
}

TEST(Rout, GradedRouterWithNowhereToGoIsCaptured_V_ROUT_6) {
  TestMap m;
  m.rule("failed_test", "graded").homeEdge(0, "west");
  m.unit({.id = "U", .at = {0, 0}});
  m.unit({.id = "E", .side = 1, .at = {1, 0}});
  m.unit({.id = "O", .side = 1, .at = {-1, 0}});
  m.unit({.id = "P", .side = 1, .at = {-1, 1}});
  m.unit({.id = "Q", .side = 1, .at = {0, -1}});
  m.unit({.id = "R", .side = 1, .at = {1, -1}});
  m.unit({.id = "S", .side = 1, .at = {0, 1}});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const int u = unitOf(*sc, "U");
  env::applyMoraleOutcome(s, u, MoraleOutcome::kRout, unitOf(*sc, "E"), cellOf(*sc, {1, 0}),
                          nullptr, nullptr);
  EXPECT_FALSE(s.onMap(u));
}

// --- pursuit (V-PUR-*) ---

// A combat die face whose CRT cell gives the defender (of VC `vc`) a test it survives and the
// attacker none, at `column`.
int dieWithDefenderTest(const env::Scenario& sc, int column, int modifier, int vc) {
  for (int d = 1; d <= 6; ++d) {
    const int row = std::clamp(d + modifier, 0, 7);
    const env::CrtCell cell = sc.crt()[static_cast<size_t>(row)][static_cast<size_t>(column + 7)];
    if (cell.defender_test && !cell.attacker_test && cell.defender_loss < vc) return d;
  }
  return -1;
}

struct PursuitRun {
  std::shared_ptr<const env::Scenario> sc;
  env::GameState s;
};

// Orange's `type` at (1,0) attacks blue infantry D at (0,0); D fails its 2d6 test and routs
// west.
PursuitRun pursuitAfterAttack(const std::string& type, bool light_infantry_pursues = false) {
  TestMap m;
  m.rule("morale_model", "ancient_2d6").rule("failed_test", "ancient_rout");
  m.rule("pursuit", "ancient").rule("light_infantry_pursues", light_infantry_pursues);
  m.homeEdge(0, "west");
  m.unit({.id = "D", .at = {0, 0}, .vc = 6, .ma = 3});
  m.unit({.id = "A", .side = 1, .type = type, .at = {1, 0}, .vc = 6, .ma = 5});
  PursuitRun run{m.build(), {}};
  run.s = stateIn(*run.sc, env::Phase::kCombat, 1);
  const env::CombatOdds odds = env::combatOdds(run.s, 1, 0);
  const int die = dieWithDefenderTest(*run.sc, odds.column, odds.dieModifier(), 6);
  EXPECT_GT(die, 0);
  env::applyAction(run.s, env::Action::attack(cellOf(*run.sc, {1, 0}), 3));
  env::applyChance(run.s, die);
  EXPECT_EQ(run.s.pending.kind, env::ChanceKind::kMoraleTest);
  env::applyChance(run.s, 12);  // 12 exceeds every factor here: D routs
  return run;
}

TEST(Pursuit, CavalryFollowsTheRouterAndGetsAFreeAttack_V_PUR_2_V_PUR_4) {
  PursuitRun r = pursuitAfterAttack("cavalry");
  const int d = unitOf(*r.sc, "D");
  const int a = unitOf(*r.sc, "A");
  EXPECT_TRUE(r.s.routed(d));
  EXPECT_TRUE(r.s.pursuing(a));
  EXPECT_EQ(r.s.moraleOf(a).pursued, d + 1);
  EXPECT_EQ(r.sc->distance(r.s.unit(a).cell, r.s.unit(d).cell), 1) << "it caught up";
  ASSERT_EQ(r.s.pending.kind, env::ChanceKind::kFreeAttack);
  EXPECT_EQ(r.s.pending.unit, a);
  const int vc = r.s.unit(d).vc;
  const int pursuer_vc = r.s.unit(a).vc;
  env::applyChance(r.s, 6);
  EXPECT_LT(r.s.onMap(d) ? r.s.unit(d).vc : 0, vc) << "the blow in the back";
  EXPECT_EQ(r.s.unit(a).vc, pursuer_vc) << "the pursuer takes nothing";
}

TEST(Pursuit, LineInfantryNeverPursuesLightInfantryBySwitch_V_PUR_2) {
  PursuitRun line = pursuitAfterAttack("infantry");
  EXPECT_FALSE(line.s.pursuing(unitOf(*line.sc, "A")));
  PursuitRun light = pursuitAfterAttack("light_infantry");
  EXPECT_FALSE(light.s.pursuing(unitOf(*light.sc, "A")));
  PursuitRun keen = pursuitAfterAttack("light_infantry", true);
  EXPECT_TRUE(keen.s.pursuing(unitOf(*keen.sc, "A")));
}

TEST(Pursuit, RoutersAndPursuersTakeNoVoluntaryAction_V_ROUT_2_V_PUR_3) {
  PursuitRun r = pursuitAfterAttack("cavalry");
  if (r.s.isChanceNode()) env::applyChance(r.s, 1);
  const int d = unitOf(*r.sc, "D");
  const int a = unitOf(*r.sc, "A");
  env::ActionList legal;
  env::legalActions(r.s, legal);
  for (const env::Action& act : legal) {
    EXPECT_NE(act.cell, r.s.unit(a).cell) << "the pursuer attacks no more";
  }
  EXPECT_FALSE(env::canAttack(r.s, a, d));
}

// Blue's routed D at (0,0) with orange's cavalry A pursuing it from `a_at`, at the end of
// blue's combat phase.
PursuitRun routedAtRally(Hex a_at) {
  TestMap m;
  m.rule("morale_model", "ancient_2d6").rule("failed_test", "ancient_rout");
  m.rule("pursuit", "ancient").homeEdge(0, "west");
  m.unit({.id = "D", .at = {0, 0}, .vc = 6, .ma = 3});
  m.unit({.id = "A", .side = 1, .type = "cavalry", .at = a_at, .vc = 6, .ma = 5});
  PursuitRun run{m.build(), {}};
  run.s = stateIn(*run.sc, env::Phase::kCombat, 0);
  env::addMoraleBits(run.s, 0, env::morale_bit::kRouted);
  env::MoraleStatus chase;
  chase.bits = env::morale_bit::kPursuing;
  chase.pursued = 1;
  env::setMoraleStatus(run.s, 1, chase);
  return run;
}

TEST(Pursuit, ActionsOfRoutersAndPursuersAreRefusedWithTheReason_V_ROUT_2_V_PUR_3) {
  PursuitRun r = routedAtRally({1, 0});
  const auto why = env::explainIllegal(r.s, env::Action::attack(cellOf(*r.sc, {0, 0}), 0));
  ASSERT_TRUE(why);
  EXPECT_EQ(why->reason, env::RefusalReason::kOutOfControl);
  EXPECT_EQ(why->rule, "V-ROUT-2");
  env::setHeader(r.s, 1, 1, env::Phase::kCombat);
  const auto pursuer = env::explainIllegal(r.s, env::Action::attack(cellOf(*r.sc, {1, 0}), 3));
  ASSERT_TRUE(pursuer);
  EXPECT_EQ(pursuer->rule, "V-PUR-3");
  EXPECT_NE(pursuer->message.find("pursuing D"), std::string::npos) << pursuer->message;
}

TEST(Pursuit, RallyStepRalliesOrRunsAgain_V_ROUT_5) {
  for (int die : {2, 12}) {
    PursuitRun r = routedAtRally({3, 0});  // the pursuer lost contact
    env::applyAction(r.s, env::Action::end());
    ASSERT_EQ(r.s.pending.kind, env::ChanceKind::kMoraleCheck);
    EXPECT_EQ(r.s.phase, env::Phase::kRally);
    EXPECT_EQ(r.s.pending.unit, 0);
    env::applyChance(r.s, die);
    if (die == 2) {
      EXPECT_FALSE(r.s.routed(0));
      EXPECT_EQ(r.s.unit(0).cell, cellOf(*r.sc, {0, 0}));
    } else {
      EXPECT_TRUE(r.s.routed(0));
      EXPECT_NE(r.s.unit(0).cell, cellOf(*r.sc, {0, 0})) << "it runs again";
    }
    EXPECT_EQ(r.s.side, 1) << "the turn went on to orange";
  }
}

TEST(Pursuit, ARouterInContactWithItsPursuerRunsWithoutATest_V_ROUT_5_V_PUR_3) {
  PursuitRun r = routedAtRally({1, 0});
  env::applyAction(r.s, env::Action::end());
  EXPECT_NE(r.s.unit(0).cell, cellOf(*r.sc, {0, 0}));
  EXPECT_NE(r.s.unit(1).cell, cellOf(*r.sc, {1, 0})) << "the pursuer follows";
  EXPECT_EQ(r.s.pending.kind, env::ChanceKind::kFreeAttack);
  EXPECT_EQ(r.s.phase, env::Phase::kRally);
}

TEST(Pursuit, APursuerOutOfContactTestsToStop_V_PUR_5) {
  PursuitRun r = routedAtRally({3, 0});
  env::clearMoraleBits(r.s, 0, env::morale_bit::kRouted);
  env::setHeader(r.s, 1, 1, env::Phase::kCombat);  // orange's combat phase ends
  env::applyAction(r.s, env::Action::end());
  ASSERT_EQ(r.s.pending.kind, env::ChanceKind::kMoraleCheck);
  EXPECT_EQ(r.s.pending.unit, 1);
  env::applyChance(r.s, 2);
  EXPECT_FALSE(r.s.pursuing(1));
}

TEST(Pursuit, CombatPreviewFollowsTheModules_V_MOR_2_V_PUR_4) {
  TestMap m;
  m.rule("morale_model", "ancient_2d6").rule("failed_test", "ancient_rout");
  m.rule("pursuit", "ancient").homeEdge(0, "west");
  m.unit({.id = "D", .at = {0, 0}, .vc = 6, .ma = 3, .morale_factor = 7});
  m.unit({.id = "A", .side = 1, .type = "cavalry", .at = {1, 0}, .vc = 6, .ma = 5});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kCombat, 1);
  const env::CombatPreview p = env::previewCombat(s, env::Action::attack(cellOf(*sc, {1, 0}), 3));
  const env::Probability tested = p.morale_tests[1].tested;
  const env::Probability failed = p.morale_tests[1].failed;
  ASSERT_GT(tested.num, 0u);
  // 2d6 > 7 fails: 15/36 of the tests.
  EXPECT_EQ(failed.num * tested.den * 36, tested.num * failed.den * 15);
  double total = 0;
  bool pursued = false;
  for (const env::Outcome& o : p.outcomes) {
    total += o.probability.value();
    for (const env::UnitOutcome& u : o.units) pursued = pursued || u.pursuing;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_TRUE(pursued) << "the outcomes show the pursuit and its free attack";
}

// --- melee factors (V-MEL-*) ---

TEST(MeleeFactors, FreshTroopsFatigueFlankFollowUpAndDisorder_V_MEL_2) {
  TestMap m;
  m.rule("melee_factors", "seed003");
  m.unit({.id = "A", .type = "cavalry", .at = {-1, 0}});
  m.unit({.id = "D", .side = 1, .at = {0, 0}});
  m.unit({.id = "B", .at = {1, 0}});  // engages D from the other side
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  const int a = unitOf(*sc, "A");
  const int d = unitOf(*sc, "D");
  const int b = unitOf(*sc, "B");
  // Both fresh (+1 each, cancelling); A comes from D's rear relative to B: cavalry +3, and B
  // from D's rear relative to A: infantry +2.
  EXPECT_EQ(env::combatOdds(s, a, d).melee, 3);
  EXPECT_EQ(env::combatOdds(s, b, d).melee, 2);
  env::MoraleStatus tired;  // fought before: no longer fresh
  tired.bits = env::morale_bit::kFoughtBefore;
  tired.fatigue = 2;
  env::setMoraleStatus(s, a, tired);
  EXPECT_EQ(env::combatOdds(s, a, d).melee, -2 - 1 + 3);
  env::addMoraleBits(s, d, env::morale_bit::kFellBack);
  EXPECT_EQ(env::combatOdds(s, a, d).melee, -2 - 1 + 3 + 2) << "following up";
  env::addMoraleBits(s, d, env::morale_bit::kRouted);
  EXPECT_EQ(env::combatOdds(s, a, d).melee, -2 - 1 + 3 + 2 + 5) << "defender in disorder";
}

TEST(MeleeFactors, NoFlankBonusFromTheSameFront_V_MEL_2) {
  TestMap m;
  m.rule("melee_factors", "seed003");
  m.unit({.id = "A", .type = "cavalry", .at = {-1, 0}});  // W of D
  m.unit({.id = "C", .at = {0, -1}});                     // NW of D: next to A's hexside
  m.unit({.id = "D", .side = 1, .at = {0, 0}});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  EXPECT_EQ(env::combatOdds(s, unitOf(*sc, "C"), unitOf(*sc, "D")).melee, 0);
}

TEST(MeleeFactors, FlankOfADefenderEngagedTwiceBySwitch_V_MEL_2) {
  // D is engaged by B1 (east) and B2 (west); A attacks from the north-east, on B1's front and
  // outside B2's. Outside every front (default): no flank; outside any one: cavalry's +3.
  for (const char* reading : {"every_front", "any_front"}) {
    TestMap m;
    m.rule("melee_factors", "seed003").rule("flank_outside", reading);
    m.unit({.id = "A", .type = "cavalry", .at = {1, -1}});
    m.unit({.id = "B1", .at = {1, 0}});
    m.unit({.id = "B2", .at = {-1, 0}});
    m.unit({.id = "D", .side = 1, .at = {0, 0}});
    const auto sc = m.build();
    const env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
    const int a = unitOf(*sc, "A");
    const int d = unitOf(*sc, "D");
    EXPECT_EQ(env::attackFromFlankOrRear(s, a, d), std::string(reading) == "any_front") << reading;
    EXPECT_EQ(env::combatOdds(s, a, d).melee, std::string(reading) == "any_front" ? 3 : 0)
        << reading << ": both fresh, +1 each";
    // With D engaged from the east and the north-east, C attacks from the west, outside both
    // fronts: a flank under either reading.
    TestMap both;
    both.rule("melee_factors", "seed003").rule("flank_outside", reading);
    both.unit({.id = "C", .type = "cavalry", .at = {-1, 0}});
    both.unit({.id = "B1", .at = {1, 0}});
    both.unit({.id = "B2", .at = {1, -1}});
    both.unit({.id = "D", .side = 1, .at = {0, 0}});
    const auto sc2 = both.build();
    const env::GameState s2 = stateIn(*sc2, env::Phase::kCombat, 0);
    EXPECT_TRUE(env::attackFromFlankOrRear(s2, unitOf(*sc2, "C"), unitOf(*sc2, "D"))) << reading;
  }
}

TEST(MeleeFactors, EachCombatAddsFatigueUpToTheCap_V_MEL_3) {
  TestMap m;
  m.rule("melee_factors", "seed003").rule("fatigue_cap", 1);
  m.unit({.id = "A", .at = {-1, 0}, .vc = 8});
  m.unit({.id = "D", .side = 1, .at = {0, 0}, .vc = 1});
  const auto sc = m.build();
  env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  env::applyAction(s, env::Action::attack(cellOf(*sc, {-1, 0}), 0));
  while (s.isChanceNode()) env::applyChance(s, 1);
  EXPECT_EQ(s.moraleOf(unitOf(*sc, "A")).fatigue, 1);
}

TEST(MeleeFactors, OffByDefault) {
  TestMap m;
  m.unit({.id = "A", .type = "cavalry", .at = {-1, 0}});
  m.unit({.id = "D", .side = 1, .at = {0, 0}});
  m.unit({.id = "B", .at = {1, 0}});
  const auto sc = m.build();
  const env::GameState s = stateIn(*sc, env::Phase::kCombat, 0);
  EXPECT_EQ(env::combatOdds(s, unitOf(*sc, "A"), unitOf(*sc, "D")).melee, 0);
  EXPECT_FALSE(sc->rules().anyVariant());
}

// --- scenarios and states ---

TEST(Variants, BuiltInVariantsLoadWithTheirModules) {
  const auto ancient = env::loadScenario("crossing-ancient");
  EXPECT_EQ(ancient->rules().morale_model, env::MoraleModel::kAncient2d6);
  EXPECT_EQ(ancient->rules().failed_test, env::FailedTest::kAncientRout);
  EXPECT_EQ(ancient->rules().pursuit, env::Pursuit::kAncient);
  EXPECT_EQ(ancient->homeEdge(0), env::MapEdge::kWest);
  EXPECT_EQ(ancient->unit(ancient->unitIndex("B-I1")).morale_factor, 8);
  const auto graded = env::loadScenario("crossing-graded");
  EXPECT_EQ(graded->unit(graded->unitIndex("O-I1")).quality, env::Quality::kGuard);
  EXPECT_EQ(env::loadScenario("crossing-melee")->rules().melee_factors,
            env::MeleeFactors::kSeed003);
  const auto base = env::loadScenario("crossing");
  EXPECT_EQ(base->numCells(), ancient->numCells());
  EXPECT_FALSE(base->rules().anyVariant());
}

std::string problemsOf(const std::string& text) {
  try {
    env::parseScenario(text, "<test>");
  } catch (const ValidationError& e) {
    return e.what();
  }
  return "";
}

TEST(Variants, BadVariantDocumentsNameThePlaceAndTheReason) {
  auto variant = [](const std::string& body) {
    return R"({"format": "morne-scenario/1", "name": "v", )" + body + "}";
  };
  const std::string unknown = problemsOf(variant(R"("variant_of": "nowhere")"));
  EXPECT_NE(unknown.find("/variant_of"), std::string::npos);
  // The list offered names bases only: a built-in variant is itself refused as a base.
  EXPECT_NE(unknown.find(" crossing"), std::string::npos) << unknown;
  EXPECT_EQ(unknown.find("crossing-ancient"), std::string::npos) << unknown;
  EXPECT_NE(problemsOf(variant(R"("variant_of": "duel", "units": {"X": {"quality": "elite"}})"))
                .find("no unit \"X\""),
            std::string::npos);
  EXPECT_NE(problemsOf(variant(R"("variant_of": "duel", "units": {"B-I1": {"vc": 9}})"))
                .find("unknown key \"vc\""),
            std::string::npos);
  EXPECT_NE(problemsOf(variant(R"("variant_of": "duel", "home_edges": {"blue": "up"})"))
                .find("unknown map edge \"up\""),
            std::string::npos);
  EXPECT_NE(problemsOf(variant(R"("variant_of": "duel", "rules": {"morale_model": "d20"})"))
                .find("morale_model"),
            std::string::npos);
  EXPECT_NE(problemsOf(variant(R"("variant_of": "duel", "units": {"B-I1": {"quality": "heroic"}})"))
                .find("unknown quality \"heroic\""),
            std::string::npos);
  EXPECT_NE(problemsOf(variant(R"("variant_of": "duel", "units": {"B-I1": {"morale_factor": 13}})"))
                .find("morale_factor"),
            std::string::npos);
}

TEST(Variants, MoraleStatusInAStateNeedsAVariantModule) {
  const auto sc = env::loadScenario("duel");
  nlohmann::json j = env::stateToJson(env::newGame(*sc));
  j["units"][0]["morale"] = {{"status", {"routed"}}};
  try {
    env::stateFromJson(*sc, j, "<test>");
    FAIL() << "accepted";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("/units/0/morale"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace morne::test
