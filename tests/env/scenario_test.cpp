// Scenario loading and validation (docs/scenario-format.md): the built-in scenarios load, and
// every kind of bad input is reported with its JSON pointer and reason, all problems at once.

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "env/error.h"
#include "env/io/builtin_scenarios.h"
#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "tests/env/problem_lines.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using nlohmann::json;

// The problems reported for a scenario document, as "PATH: MESSAGE" lines.
std::vector<std::string> problemsOf(const json& doc) {
  return problemLines([&] { env::parseScenario(doc.dump(), "t.json"); });
}

json baseDoc() {
  TestMap m;
  m.unit({.id = "A", .at = {0, 0}}).unit({.id = "B", .side = 1, .at = {3, 0}});
  return m.toJson();
}

TEST(Scenario, BuiltinsLoadAndStart) {
  // The eight files of configs/scenarios and four generated twins (below).
  ASSERT_EQ(env::builtinScenarios().size(), 12u);
  for (const env::BuiltinScenario& b : env::builtinScenarios()) {
    const auto sc = env::loadScenario(b.name);
    EXPECT_EQ(sc->name(), b.name);
    const env::GameState s = env::newGame(*sc);
    EXPECT_FALSE(s.isTerminal());
    EXPECT_EQ(s.turn, 1);
  }
  const auto crossing = env::loadScenario("crossing");
  EXPECT_EQ(crossing->width(), 20);
  EXPECT_EQ(crossing->height(), 14);
}

// Every built-in scenario with a handicap, or a variant of one that has a twin, exists without
// it as NAME-unbalanced: a file of its own when the balancing changed the map's objectives
// (crossing, duel), else generated (the same document, handicap 0; a variant of the base's
// twin).
TEST(Scenario, EachBalancedBuiltinHasAnUnbalancedTwin) {
  std::set<std::string> names;
  for (const env::BuiltinScenario& b : env::builtinScenarios()) names.insert(b.name);
  int twins = 0;
  for (const std::string& name : names) {
    if (name.ends_with(env::kUnbalancedSuffix)) continue;
    const auto sc = env::loadScenario(name);
    const std::string twin_name = name + env::kUnbalancedSuffix;
    if (sc->balance().half_vp == 0 && !names.contains(twin_name)) continue;
    ASSERT_TRUE(names.contains(twin_name)) << name << " has a handicap and no twin";
    const auto twin = env::loadScenario(twin_name);
    ++twins;
    EXPECT_EQ(twin->name(), twin_name);
    EXPECT_EQ(twin->balance().half_vp, 0) << twin_name;
    EXPECT_EQ(twin->width(), sc->width()) << twin_name;
    EXPECT_EQ(twin->rules(), sc->rules()) << twin_name;
  }
  EXPECT_EQ(twins, 6) << "crossing, its three variants, duel and pyramids";
  // crossing-unbalanced is crossing as it was: without the bridge's passing objective, and its
  // variants' twins are variants of it.
  const auto crossing = env::loadScenario("crossing");
  const auto before = env::loadScenario("crossing-unbalanced");
  EXPECT_EQ(before->objectives().size() + 1, crossing->objectives().size());
  const auto ancient = env::loadScenario("crossing-ancient-unbalanced");
  EXPECT_EQ(ancient->objectives().size(), before->objectives().size());
  EXPECT_EQ(ancient->rules().pursuit, env::Pursuit::kAncient);
}

TEST(Scenario, CrossingHasEveryRequiredFeature) {
  const auto sc = env::loadScenario("crossing");
  bool river = false, bridge = false, ford = false, stream = false, cliff = false, slope = false;
  bool track = false;
  int generals = 0, artillery = 0;
  for (env::CellId c = 0; c < sc->numCells(); ++c) {
    for (int d = 0; d < env::kNumDirections; ++d) {
      const env::Hexside& h = sc->side(c, d);
      river |= h.water == env::Water::kRiver;
      bridge |= h.crossing == env::Crossing::kBridge && h.water == env::Water::kRiver;
      ford |= h.crossing == env::Crossing::kFord;
      stream |= h.water == env::Water::kStream;
      cliff |= h.isCliff();
      slope |= h.climb == 1;
      track |= h.track;
    }
  }
  for (const env::UnitInfo& u : sc->units()) {
    generals += env::isGeneral(u.type);
    artillery += env::isArtillery(u.type);
  }
  EXPECT_TRUE(river && bridge && ford && stream && cliff && slope && track);
  EXPECT_EQ(generals, 4);
  EXPECT_EQ(artillery, 4);
  std::set<env::Terrain> terrains;
  for (env::CellId c = 0; c < sc->numCells(); ++c) terrains.insert(sc->terrain(c));
  for (env::Terrain t : {env::Terrain::kWoods, env::Terrain::kVillage, env::Terrain::kHamlet,
                         env::Terrain::kMarsh, env::Terrain::kOrchard}) {
    EXPECT_TRUE(terrains.count(t)) << env::terrainName(t);
  }
}

TEST(Scenario, ReportsTwoUnitsOnOneHex_U_STACK_1) {
  json doc = baseDoc();
  doc["sides"][1]["units"][0]["hex"] = doc["sides"][0]["units"][0]["hex"];
  EXPECT_TRUE(mentions(problemsOf(doc), "/sides/1/units/0/hex", "already holds unit \"A\""));
}

TEST(Scenario, ReportsUnitOffTheMap_M_HEX_3) {
  json doc = baseDoc();
  std::string row = doc["map"]["terrain"][6];
  row[12] = '-';  // column 7 of row 7: the hex of unit A becomes void
  doc["map"]["terrain"][6] = row;
  EXPECT_TRUE(mentions(problemsOf(doc), "/sides/0/units/0/hex", "not on the map"));
}

TEST(Scenario, ReportsUnknownTerrainCode) {
  json doc = baseDoc();
  std::string row = doc["map"]["terrain"][2];
  row[4] = 'Q';
  doc["map"]["terrain"][2] = row;
  EXPECT_TRUE(mentions(problemsOf(doc), "/map/terrain/2", "unknown terrain code \"Q\""));
}

TEST(Scenario, ReportsVcOfZero) {
  json doc = baseDoc();
  doc["sides"][0]["units"][0]["vc"] = 0;
  EXPECT_TRUE(mentions(problemsOf(doc), "/sides/0/units/0/vc", "VC of 0"));
}

TEST(Scenario, ReportsEveryProblemAtOnce) {
  json doc = baseDoc();
  doc["sides"][0]["units"][0]["vc"] = 0;
  doc["sides"][0]["units"][0]["speed"] = 3;
  doc["sides"][1]["units"][0]["type"] = "hussar";
  doc["rules"]["slope_up_cost"] = 7;
  doc["rules"]["no_such_switch"] = true;
  const auto problems = problemsOf(doc);
  EXPECT_TRUE(mentions(problems, "/sides/0/units/0/vc"));
  EXPECT_TRUE(mentions(problems, "/sides/0/units/0/speed", "unknown key"));
  EXPECT_TRUE(mentions(problems, "/sides/1/units/0/type", "unknown unit type \"hussar\""));
  EXPECT_TRUE(mentions(problems, "/rules/slope_up_cost", "out of range 0..3"));
  EXPECT_TRUE(mentions(problems, "/rules/no_such_switch", "unknown rule switch"));
}

// A map problem does not hide the others: a wrong terrain code and a level out of range are
// reported with two units on one hex and a bad watercourse in the same run.
TEST(Scenario, MapProblemsDoNotHideTheRest) {
  json doc = baseDoc();
  std::string row = doc["map"]["terrain"][2];
  row[4] = 'Q';
  doc["map"]["terrain"][2] = row;
  doc["sides"][1]["units"][0]["hex"] = doc["sides"][0]["units"][0]["hex"];
  const auto problems = problemsOf(doc);
  EXPECT_TRUE(mentions(problems, "/map/terrain/2", "unknown terrain code \"Q\""));
  EXPECT_TRUE(mentions(problems, "/sides/1/units/0/hex", "already holds unit \"A\""));
}

TEST(Scenario, ReportsBadHexsides) {
  json doc = baseDoc();
  const json pair1 = json::array({"0101", "0303"});
  const json pair2 = json::array({"0505", "0605"});
  doc["map"]["watercourses"] =
      json::array({{{"type", "river"}, {"hexsides", json::array({pair1})}}});
  doc["map"]["crossings"] = json::array({{{"type", "bridge"}, {"hexside", pair2}}});
  doc["map"]["tracks"] = json::array({pair2});
  const auto problems = problemsOf(doc);
  EXPECT_TRUE(mentions(problems, "/map/watercourses/0/hexsides/0", "not adjacent"));
  EXPECT_TRUE(mentions(problems, "/map/crossings/0", "needs a watercourse"));
  EXPECT_TRUE(mentions(problems, "/map/tracks/0", "must cross a cliff"));
}

TEST(Scenario, ReportsRoadAcrossAnUnbridgedRiver) {
  TestMap m;
  m.unit({.id = "A", .at = {-3, 0}}).water({0, 0}, {1, 0}, "river").road({{0, 0}, {1, 0}});
  const auto problems = problemsOf(m.toJson());
  EXPECT_TRUE(mentions(problems, "/map/roads/0/1", "no unit may cross"));
}

TEST(Scenario, ReportsUnitFieldsByType_U_ATTR_1) {
  json doc = baseDoc();
  doc["sides"][0]["units"][0]["type"] = "foot_artillery";  // no vt, no range
  doc["sides"][1]["units"][0]["radius"] = 2;               // not a general
  doc["sides"][1]["units"].push_back(
      {{"id", "G"}, {"type", "general"}, {"hex", "0101"}, {"vc", 2}, {"mo", 3}, {"ma", 6}});
  const auto problems = problemsOf(doc);
  EXPECT_TRUE(mentions(problems, "/sides/0/units/0", "fire value"));
  EXPECT_TRUE(mentions(problems, "/sides/1/units/0/radius", "only generals"));
  EXPECT_TRUE(mentions(problems, "/sides/1/units/1/mo", "generals have no morale"));
  EXPECT_TRUE(mentions(problems, "/sides/1/units/1", "must name the corps"));
}

TEST(Scenario, ReportsJsonSyntaxWithLineAndColumn) {
  try {
    env::parseScenario("{\n  \"format\": \"morne-scenario/1\",\n  \"name\": oops\n}", "bad.json");
    FAIL() << "accepted invalid JSON";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: /: line 3, column"), std::string::npos)
        << e.what();
  }
}

TEST(Scenario, RuleSwitchesDefaultToTheSpecification_ENG_4) {
  const auto sc = TestMap().build();
  EXPECT_EQ(sc->rules(), env::RuleSwitches{});
  for (const env::RuleSwitchInfo& info : env::ruleSwitchTable()) {
    EXPECT_EQ(env::findRuleSwitch(info.name), &info);
    EXPECT_NE(std::string(info.rule_ids), "");
  }
  TestMap m;
  m.rule("general_moves_as", "infantry")
      .rule("los_obstacle_height", 2)
      .rule("generals_exert_zoc", false);
  const auto changed = m.build();
  EXPECT_EQ(changed->rules().general_moves_as, env::GeneralMoves::kAsInfantry);
  EXPECT_EQ(changed->rules().los_obstacle_height, 2);
  EXPECT_FALSE(changed->rules().generals_exert_zoc);
}

TEST(Scenario, FormatDocumentListsEverySwitch) {
  std::ifstream in(MORNE_SOURCE_DIR "/docs/scenario-format.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(doc.empty());
  for (const env::RuleSwitchInfo& info : env::ruleSwitchTable()) {
    EXPECT_NE(doc.find("| `" + std::string(info.name) + "` |"), std::string::npos) << info.name;
  }
}

TEST(Scenario, LabelsRoundTrip_M_HEX_2) {
  const auto sc = env::loadScenario("crossing");
  for (env::CellId c = 0; c < sc->numCells(); ++c) {
    EXPECT_EQ(sc->cellOfLabel(sc->label(c)), c);
    EXPECT_EQ(sc->cellAt(sc->hexOf(c)), c);
  }
  EXPECT_EQ(sc->cellOfLabel("0000"), env::kNoCell);
  EXPECT_EQ(sc->cellOfLabel("2115"), env::kNoCell);
  EXPECT_EQ(sc->cellOfLabel("12a4"), env::kNoCell);
}

}  // namespace
}  // namespace morne::test
