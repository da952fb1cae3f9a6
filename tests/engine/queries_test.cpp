// The engine protocol's version 2 questions: refusals with a reason and a rule, zones of
// control, reachable hexes of any unit, the reaction fire a step draws, the morale tests of an
// attack, and what-if queries on a position of their own.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "tests/engine/session_client.h"

namespace morne::test {
namespace {

using nlohmann::json;

TEST(EngineQueries, RefusalsCarryAReasonAndARule) {
  SessionClient c;
  c.ok({{"cmd", "load"}, {"scenario", "duel"}});
  json r = c.send({{"cmd", "apply"}, {"text", "move 0507>0408"}});
  EXPECT_EQ(r["error"]["code"], "illegal_action");
  EXPECT_EQ(r["error"]["reason"], "hex_occupied");
  EXPECT_EQ(r["error"]["rule"], "U-STACK-1");
  r = c.send({{"cmd", "apply"}, {"text", "move 0707>0505"}});
  EXPECT_EQ(r["error"]["reason"], "not_adjacent") << r.dump();
  r = c.send({{"cmd", "apply"}, {"outcome", 3}});
  EXPECT_EQ(r["error"]["reason"], "no_chance_pending") << r.dump();
  r = c.send({{"cmd", "apply"}, {"text", "dance"}});
  EXPECT_EQ(r["error"]["code"], "bad_request") << "not an action at all";
  EXPECT_FALSE(r["error"].contains("reason"));
  const json help = c.ok({{"cmd", "help"}});
  EXPECT_GE(help["refusal_reasons"].size(), 30u);
  EXPECT_EQ(help["details"].size(), help["commands"].size());
}

// The scenario list gives each scenario's card line: its handicap and how it was measured, from
// the scenario file (configs/scenarios/duel.json); none for one played without a handicap.
TEST(EngineQueries, TheScenarioListStatesEachHandicapAndItsMeasurement) {
  SessionClient c;
  const json list = c.ok({{"cmd", "scenarios"}})["scenarios"];
  std::map<std::string, std::string> balance;
  for (const json& s : list) balance[s["name"]] = s["balance"];
  EXPECT_EQ(balance["duel"].rfind("handicap +1.5 VP to orange: blue wins ", 0), 0u)
      << balance["duel"];
  EXPECT_NE(balance["duel"].find("of rule against itself"), std::string::npos) << balance["duel"];
  EXPECT_EQ(balance["duel-unbalanced"], "");
  // Each with its briefing, as the set-up screen shows it.
  for (const json& s : list) {
    if (s["name"] == "crossing") {
      EXPECT_NE(s["description"].get<std::string>().find("must take the bridgehead village"),
                std::string::npos)
          << s.dump();
    }
  }
}

TEST(EngineQueries, ZonesOfControlAndReachableHexesOfAnyUnit) {
  SessionClient c;
  c.ok({{"cmd", "load"}, {"scenario", "duel"}});
  const json zoc = c.ok({{"cmd", "zoc"}})["zoc"];
  ASSERT_TRUE(zoc.contains("blue") && zoc.contains("orange"));
  EXPECT_FALSE(zoc["blue"].empty());
  EXPECT_FALSE(zoc["orange"].empty());
  for (const json& h : zoc["orange"]) EXPECT_GE(h["units"].get<int>(), 1);

  // Blue moves first: a blue unit's hexes are legal now, an orange unit's are a forecast.
  const json own = c.ok({{"cmd", "reachable"}, {"unit", "B-I1"}});
  EXPECT_TRUE(own["legal_now"]);
  EXPECT_FALSE(own["hexes"].empty());
  const json enemy = c.ok({{"cmd", "reachable"}, {"unit", "O-I1"}});
  EXPECT_FALSE(enemy["legal_now"]);
  EXPECT_GT(enemy["mp"].get<int>(), 0);
  EXPECT_FALSE(enemy["hexes"].empty()) << enemy.dump();
  // Orange's forecast is what orange gets once blue's player-turn is over.
  c.ok({{"cmd", "apply"}, {"text", "end"}});
  while (c.ok({{"cmd", "result"}})["terminal"] == false &&
         c.ok({{"cmd", "legal"}})["status"]["side"] == "blue") {
    c.ok({{"cmd", "apply"}, {"text", "end"}});
  }
  const json later = c.ok({{"cmd", "reachable"}, {"unit", "O-I1"}});
  if (later["legal_now"] == true) {
    EXPECT_EQ(later["hexes"], enemy["hexes"]);
  }
}

// Regression (F-GEN-6): a battery that fired cannot move in its own movement phase; `reachable`
// answered a forecast of its full allowance (`legal_now` false), which a client drew.
TEST(EngineQueries, ArtilleryThatFiredHasNoReachableHexInItsMovementPhase_F_GEN_6) {
  SessionClient c;
  c.ok({{"cmd", "load"}, {"scenario", "crossing"}});
  json state = c.ok({{"cmd", "state"}})["state"];
  ASSERT_EQ(state["phase"], "movement");
  ASSERT_EQ(state["side"], "blue");
  state.erase("hash");
  for (json& u : state["units"]) {
    if (u["id"] == "B-H1") {
      u["flags"] = {"in_command", "fired"};
      u["mp"] = 0;
    }
  }
  const json fired = c.ok({{"cmd", "reachable"}, {"unit", "B-H1"}, {"state", state}});
  EXPECT_TRUE(fired["legal_now"]) << "its own movement phase";
  EXPECT_EQ(fired["mp"], 0);
  EXPECT_TRUE(fired["hexes"].empty()) << fired.dump();
  // The enemy's battery is still a forecast, and the unfired one moves.
  EXPECT_FALSE(c.ok({{"cmd", "reachable"}, {"unit", "O-H1"}, {"state", state}})["legal_now"]);
  EXPECT_FALSE(c.ok({{"cmd", "reachable"}, {"unit", "B-A1"}, {"state", state}})["hexes"].empty());
}

TEST(EngineQueries, WhatIfQueriesLeaveTheGameAlone) {
  SessionClient c;
  c.ok({{"cmd", "load"}, {"scenario", "duel"}});
  const json start = c.ok({{"cmd", "state"}})["state"];
  c.ok({{"cmd", "apply"}, {"text", "move 0707>0706"}});
  const json now = c.ok({{"cmd", "state"}})["state"];
  const json legal_then = c.ok({{"cmd", "legal"}, {"state", start}});
  const json legal_now = c.ok({{"cmd", "legal"}});
  EXPECT_NE(legal_then["actions"], legal_now["actions"]);
  EXPECT_EQ(c.ok({{"cmd", "state"}})["state"], now) << "the game did not move";
  const json move = c.ok({{"cmd", "genmove"}, {"agent", "rule"}, {"state", start}});
  EXPECT_TRUE(move.contains("action"));
  // A time limit replaces a searching agent's budget; 0 ms is no limit a search can keep.
  const json timed = c.ok({{"cmd", "genmove"}, {"agent", "mcts:sims=100000"}, {"ms", 50}});
  EXPECT_EQ(timed["agent"].get<std::string>().rfind("mcts:ms=50,", 0), 0u) << timed["agent"];
  EXPECT_LT(timed["seconds"].get<double>(), 5.0);
  EXPECT_EQ(errorCode(c.send({{"cmd", "genmove"}, {"agent", "mcts"}, {"ms", 0}})), "bad_request");
  EXPECT_EQ(
      errorCode(c.send({{"cmd", "genmove"}, {"agent", "rule"}, {"state", start}, {"play", true}})),
      "bad_request");
  json broken = start;
  broken["units"][0]["vc"] = 99;
  EXPECT_EQ(errorCode(c.send({{"cmd", "legal"}, {"state", broken}})), "invalid_input");
}

// Plays crossing with the rule agent until a step would draw reaction fire; the preview's gun
// is the one that fires when the step is made.
TEST(EngineQueries, StepPreviewNamesTheGunsThatReact) {
  SessionClient c;
  c.ok({{"cmd", "load"}, {"scenario", "crossing"}, {"seed", 2}});
  bool found = false;
  for (int ply = 0; ply < 2000 && !found; ++ply) {
    if (c.ok({{"cmd", "result"}})["terminal"] == true) {
      c.ok({{"cmd", "load"}, {"scenario", "crossing"}, {"seed", static_cast<uint64_t>(ply + 3)}});
    }
    if (c.ok({{"cmd", "chance"}})["chance"] == true) {
      c.ok({{"cmd", "roll"}});
      continue;
    }
    const json legal = c.ok({{"cmd", "legal"}});
    for (const json& a : legal["actions"]) {
      if (a["action"]["type"] != "move") continue;
      const json p = c.ok({{"cmd", "preview_step"}, {"action", a["action"]}});
      if (p["reaction_fire"].empty()) continue;
      double total = 0;
      for (const json& o : p["outcomes"]) total += o["probability"].get<double>();
      EXPECT_NEAR(total, 1.0, 1e-12);
      const json applied = c.ok({{"cmd", "apply"}, {"action", a["action"]}});
      std::vector<json> events = applied["events"];
      if (p["charge_offered"] == true) {
        const json held = c.ok({{"cmd", "apply"}, {"text", "hold"}});
        events.insert(events.end(), held["events"].begin(), held["events"].end());
      }
      bool fired = false;
      for (const json& e : events) {
        fired = fired || (e["event"] == "fire" && e["unit"] == p["reaction_fire"][0]["gun"]);
      }
      EXPECT_TRUE(fired) << p.dump() << "\n" << json(events).dump();
      found = true;
      break;
    }
    if (!found) c.ok({{"cmd", "genmove"}, {"agent", "rule"}, {"play", true}});
  }
  EXPECT_TRUE(found) << "no step drew reaction fire in 2000 plies of crossing";
}

TEST(EngineQueries, CombatPreviewGivesMoraleTestsAndRetreatCosts) {
  SessionClient c;
  c.ok({{"cmd", "load"}, {"scenario", "crossing"}});
  std::ifstream in(std::string(MORNE_SOURCE_DIR) + "/tests/golden/crossing_battle.json");
  c.ok({{"cmd", "set_state"}, {"state", json::parse(in)}});
  const json p = c.ok({{"cmd", "preview_combat"}, {"attacker", "B-I3"}, {"defender", "O-I1"}});
  for (const char* who : {"attacker", "defender"}) {
    const json& t = p["morale_tests"][who];
    EXPECT_LE(t["failed"]["probability"].get<double>(), t["tested"]["probability"].get<double>());
  }
  EXPECT_GT(p["morale_tests"]["attacker"]["tested"]["probability"].get<double>() +
                p["morale_tests"]["defender"]["tested"]["probability"].get<double>(),
            0.0);
  for (const json& o : p["outcomes"]) EXPECT_TRUE(o["defender"].contains("retreat_zocs"));
}

// The result says where the VP come from: each objective's holder and the VP it gives, which
// add up to the sides' totals (V-HEX-1, V-HEX-2, V-LEVEL-1).
TEST(EngineQueries, TheResultBreaksTheVictoryPointsDownByObjective_V_HEX_1) {
  SessionClient c;
  for (const char* scenario : {"duel", "crossing", "pyramids"}) {
    c.ok({{"cmd", "load"}, {"scenario", scenario}, {"seed", 3}});
    for (int ply = 0; ply < 400; ++ply) {
      const json r = c.ok({{"cmd", "result"}});
      std::map<std::string, int> sum = {{"blue", 0}, {"orange", 0}};
      for (const json& o : r["objectives"]) {
        if (o["holder"].is_null()) {
          EXPECT_EQ(o["vp"], 0);
          continue;
        }
        sum[o["holder"].get<std::string>()] += o["vp"].get<int>();
      }
      for (const json& z : r["zones"]) {
        for (const json& side : z["scored_by"]) sum[side.get<std::string>()] += z["vp"].get<int>();
      }
      ASSERT_EQ(sum["blue"], r["vp"]["blue"]) << scenario << " ply " << ply << " " << r.dump();
      ASSERT_EQ(sum["orange"], r["vp"]["orange"]) << scenario << " ply " << ply;
      if (r["terminal"] == true) break;
      if (c.ok({{"cmd", "chance"}})["chance"] == true) {
        c.ok({{"cmd", "roll"}});
      } else {
        c.ok({{"cmd", "genmove"}, {"agent", "rule"}, {"play", true}});
      }
    }
  }
}

// "charts" gives the scenario's combat results table and entering costs (C-CRT-1, MV-COST-1),
// each terrain of the map with one cost per movement class.
TEST(EngineQueries, ChartsGiveTheScenariosTablesWithTheirRules_C_CRT_1) {
  SessionClient c;
  c.ok({{"cmd", "load"}, {"scenario", "crossing"}});
  const json charts = c.ok({{"cmd", "charts"}});
  EXPECT_EQ(charts["crt"]["rule"], "C-CRT-1");
  ASSERT_EQ(charts["crt"]["columns"].size(), 15u);
  EXPECT_EQ(charts["crt"]["columns"][7], "1:1");
  ASSERT_EQ(charts["crt"]["rows"].size(), 8u);
  EXPECT_EQ(charts["terrain_costs"]["rule"], "MV-COST-1");
  std::set<std::string> terrains;
  for (const json& t : charts["terrain_costs"]["terrain"]) {
    terrains.insert(t["terrain"].get<std::string>());
    EXPECT_EQ(t["costs"].size(), 5u) << t.dump();
  }
  EXPECT_TRUE(terrains.count("clear") && terrains.count("woods")) << charts.dump();
  const json clear = charts["terrain_costs"]["terrain"][0];
  EXPECT_EQ(clear["terrain"], "clear");
  EXPECT_EQ(clear["costs"]["infantry"], 1);
}

// set_state takes only what the rules can produce: the two examples, a morale test
// pending for a unit at morale 0 and a combat between units four hexes apart.
TEST(EngineQueries, SetStateRefusesWhatTheRulesCannotProduce) {
  SessionClient c;
  c.ok({{"cmd", "load"}, {"scenario", "duel"}, {"seed", 4}});
  json test_state;
  json combat_state;
  for (int ply = 0; ply < 3000 && (test_state.is_null() || combat_state.is_null()); ++ply) {
    if (c.ok({{"cmd", "result"}})["terminal"] == true) {
      c.ok({{"cmd", "load"}, {"scenario", "duel"}, {"seed", static_cast<uint64_t>(ply)}});
    }
    const json chance = c.ok({{"cmd", "chance"}});
    if (chance["chance"] == true) {
      const json state = c.ok({{"cmd", "state"}})["state"];
      if (chance["event"]["kind"] == "morale_test" && test_state.is_null()) test_state = state;
      if (chance["event"]["kind"] == "combat_die" && combat_state.is_null()) combat_state = state;
      c.ok({{"cmd", "roll"}});
    } else {
      c.ok({{"cmd", "genmove"}, {"agent", "rule"}, {"play", true}});
    }
  }
  ASSERT_FALSE(test_state.is_null());
  ASSERT_FALSE(combat_state.is_null());
  EXPECT_TRUE(c.ok({{"cmd", "set_state"}, {"state", test_state}})["ok"]);
  json bad = test_state;
  bad.erase("hash");
  for (json& u : bad["units"]) {
    if (u["id"] == bad["pending"]["unit"]) u["mo"] = 0;
  }
  json r = c.send({{"cmd", "set_state"}, {"state", bad}});
  EXPECT_EQ(r["error"]["code"], "invalid_input") << r.dump();
  EXPECT_NE(r.dump().find("morale 1..8"), std::string::npos) << r.dump();

  bad = combat_state;
  bad.erase("hash");
  const std::string defender = bad["combat"]["defender"];
  for (json& u : bad["units"]) {
    if (u["id"] == defender) u["hex"] = "0101";  // far from any attacker of duel's middle
  }
  bad["combat"]["defender_hex"] = "0101";
  r = c.send({{"cmd", "set_state"}, {"state", bad}});
  EXPECT_EQ(r["error"]["code"], "invalid_input") << r.dump();
  EXPECT_NE(r.dump().find("contact"), std::string::npos) << r.dump();
}

}  // namespace
}  // namespace morne::test
