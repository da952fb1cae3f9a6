// The engine protocol, request by request, through EngineSession (the same object
// `morne engine` serves). tests/cli/morne_binary_test.cpp drives the real process.

#include "engine/session.h"

#include <gtest/gtest.h>

#include <fstream>

#include "env/io/scenario_library.h"
#include "tests/engine/session_client.h"

namespace morne::test {
namespace {

using nlohmann::json;

using Session = SessionClient;

TEST(EngineSession, LoadLegalApplyState) {
  Session s;
  const json loaded = s.send({{"cmd", "load"}, {"scenario", "duel"}, {"id", 7}});
  ASSERT_TRUE(loaded["ok"]) << loaded.dump();
  EXPECT_EQ(loaded["id"], 7);
  EXPECT_EQ(loaded["name"], "duel");
  EXPECT_EQ(loaded["status"]["phase"], "movement");
  EXPECT_EQ(loaded["units"].size(), 8u);

  const json legal = s.send({{"cmd", "legal"}});
  ASSERT_TRUE(legal["ok"]);
  ASSERT_GT(legal["count"].get<int>(), 5);
  const json first_move = legal["actions"][1];
  EXPECT_EQ(first_move["action"]["type"], "move");

  const json applied = s.send({{"cmd", "apply"}, {"action", first_move["action"]}});
  ASSERT_TRUE(applied["ok"]) << applied.dump();
  EXPECT_EQ(applied["events"][0]["event"], "step");
  EXPECT_EQ(applied["events"][0]["unit"], first_move["action"]["unit"]);

  const json by_text = s.send({{"cmd", "apply"}, {"text", "end"}});
  ASSERT_TRUE(by_text["ok"]) << by_text.dump();
  EXPECT_EQ(by_text["status"]["side"], "orange");

  const json state = s.send({{"cmd", "state"}});
  ASSERT_TRUE(state["ok"]);
  EXPECT_EQ(state["state"]["format"], "morne-state/1");
  const json restored = s.send({{"cmd", "set_state"}, {"state", state["state"]}});
  EXPECT_TRUE(restored["ok"]) << restored.dump();
  EXPECT_EQ(s.send({{"cmd", "state"}})["state"], state["state"]);
}

TEST(EngineSession, ChanceEventsAndRoll) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}, {"seed", 3}})["ok"]);
  // B-C1 at 0707 walks north into the marsh at 0704: 0706, 0705, then 0704.
  for (const char* step : {"move 0707>0706", "move 0706>0705", "move 0705>0704"}) {
    const json r = s.send({{"cmd", "apply"}, {"text", step}});
    ASSERT_TRUE(r["ok"]) << step << ": " << r.dump();
  }
  const json chance = s.send({{"cmd", "chance"}});
  ASSERT_TRUE(chance["chance"]);
  EXPECT_EQ(chance["event"]["kind"], "marsh_test");
  EXPECT_EQ(chance["outcomes"].size(), 4u);
  EXPECT_EQ(errorCode(s.send({{"cmd", "apply"}, {"text", "end"}})), "illegal_action");
  EXPECT_EQ(errorCode(s.send({{"cmd", "apply"}, {"outcome", 7}})), "illegal_action");
  const json rolled = s.send({{"cmd", "roll"}});
  ASSERT_TRUE(rolled["ok"]) << rolled.dump();
  EXPECT_EQ(rolled["events"][0]["event"], "marsh_test");
  EXPECT_EQ(rolled["events"][0]["die"], rolled["outcome"]);
  EXPECT_FALSE(s.send({{"cmd", "chance"}})["chance"]);
}

// A variant module over the protocol (docs/variants.md): a routed unit's state round-trips,
// its rally test is a chance event with the 2d6 distribution, and its result is reported.
TEST(EngineSession, VariantModulesRallyARouter) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "crossing-ancient"}, {"seed", 5}})["ok"]);
  json state = s.send({{"cmd", "state"}})["state"];
  state["phase"] = "combat";
  state.erase("hash");
  state["units"][1]["morale"] = {{"status", {"routed", "routed_before"}}, {"fatigue", 0}};
  const json set = s.send({{"cmd", "set_state"}, {"state", state}});
  ASSERT_TRUE(set["ok"]) << set.dump();
  EXPECT_EQ(s.send({{"cmd", "state"}})["state"]["units"][1]["morale"]["status"][0], "routed");
  ASSERT_TRUE(s.send({{"cmd", "apply"}, {"text", "end"}})["ok"]);
  const json chance = s.send({{"cmd", "chance"}});
  ASSERT_TRUE(chance["chance"]) << chance.dump();
  EXPECT_EQ(chance["event"]["kind"], "morale_check");
  EXPECT_EQ(chance["outcomes"].size(), 11u) << "2d6: 2..12";
  EXPECT_EQ(s.send({{"cmd", "state"}})["state"]["phase"], "rally");
  const json rolled = s.send({{"cmd", "roll"}});
  ASSERT_TRUE(rolled["ok"]) << rolled.dump();
  EXPECT_EQ(rolled["events"][0]["event"], "morale_result");
  EXPECT_EQ(rolled["events"][0]["die"], rolled["outcome"]);
}

TEST(EngineSession, Reachable) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}})["ok"]);
  const json r = s.send({{"cmd", "reachable"}, {"unit", "B-I1"}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["mp"], 3);
  bool found = false;
  for (const json& h : r["hexes"]) {
    EXPECT_LE(h["cost"].get<int>(), 3);
    EXPECT_EQ(h["path"].back(), h["hex"]);
    if (h["hex"] == "0304") {  // three road hexes north of 0307: 0, 1, 0 MP
      found = true;
      EXPECT_EQ(h["cost"], 1);
    }
  }
  EXPECT_TRUE(found) << r.dump();
  EXPECT_EQ(errorCode(s.send({{"cmd", "reachable"}, {"unit", "nobody"}})), "bad_request");
}

TEST(EngineSession, BadInputGetsPreciseErrorsAndTheSessionGoesOn) {
  Session s;
  EXPECT_EQ(errorCode(s.sendRaw("{not json")), "parse_error");
  EXPECT_EQ(errorCode(s.sendRaw("[1,2]")), "bad_request");
  EXPECT_EQ(errorCode(s.send({{"id", 1}})), "bad_request");
  EXPECT_EQ(errorCode(s.send({{"cmd", "legal"}})), "no_game");
  EXPECT_EQ(errorCode(s.send({{"cmd", "fly"}})), "unknown_command");
  EXPECT_EQ(errorCode(s.send({{"cmd", "load"}, {"scenario", "atlantis"}})), "invalid_input");
  const json invalid = s.send({{"cmd", "load"}, {"json", {{"format", "morne-scenario/1"}}}});
  EXPECT_EQ(errorCode(invalid), "invalid_input");
  EXPECT_FALSE(invalid["error"]["details"].empty());
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}})["ok"]);
  const json stacked = s.send({{"cmd", "apply"}, {"text", "move 0507>0408"}, {"id", "x"}});
  EXPECT_EQ(errorCode(stacked), "illegal_action");
  EXPECT_EQ(stacked["id"], "x");
  EXPECT_NE(stacked["error"]["message"].get<std::string>().find("U-STACK-1"), std::string::npos);
  EXPECT_EQ(errorCode(s.send({{"cmd", "apply"}, {"text", "move 0202>0302"}})), "illegal_action");
  EXPECT_EQ(errorCode(s.send({{"cmd", "apply"}, {"action", {{"type", "move"}}}})), "bad_request");
  EXPECT_EQ(errorCode(s.send({{"cmd", "apply"}, {"index", -4}})), "bad_request");
  EXPECT_EQ(errorCode(s.send({{"cmd", "apply"}, {"text", "end"}, {"index", 0}})), "bad_request");
  EXPECT_EQ(errorCode(s.send({{"cmd", "legal"}, {"verbose", true}})), "bad_request");
  EXPECT_EQ(errorCode(s.send({{"cmd", "set_state"}, {"state", {{"format", "x"}}}})),
            "invalid_input");
  EXPECT_TRUE(s.send({{"cmd", "legal"}})["ok"]) << "still serving";
  EXPECT_TRUE(s.send({{"cmd", "quit"}})["ok"]);
  EXPECT_TRUE(s.quit);
}

}  // namespace
}  // namespace morne::test

namespace morne::test {
namespace {

nlohmann::json goldenState(const std::string& name) {
  std::ifstream in(std::string(MORNE_SOURCE_DIR) + "/tests/golden/" + name);
  return nlohmann::json::parse(in);
}

TEST(EngineSession, LineOfSightAndPreviews) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "crossing"}})["ok"]);
  const json los = s.send({{"cmd", "los"}, {"from", "1205"}, {"to", "1507"}});
  ASSERT_TRUE(los["ok"]) << los.dump();
  EXPECT_EQ(los["distance"], 4);
  EXPECT_TRUE(los["visible"].is_boolean());
  ASSERT_TRUE(s.send({{"cmd", "set_state"}, {"state", goldenState("crossing_battle.json")}})["ok"]);
  const json p = s.send({{"cmd", "preview_combat"}, {"attacker", "B-I3"}, {"defender", "O-I1"}});
  ASSERT_TRUE(p["ok"]) << p.dump();
  EXPECT_EQ(p["odds"], "1:2");
  EXPECT_EQ(p["dice"].size(), 6u);
  double total = 0;
  for (const json& o : p["outcomes"]) total += o["probability"].get<double>();
  EXPECT_NEAR(total, 1.0, 1e-12);
  bool doubled = false;
  for (const json& u : p["units"]) {
    if (u["unit"] == "O-I1") doubled = u["effects"][0] == "doubled" && u["modified_vc"] == 8;
  }
  EXPECT_TRUE(doubled) << "infantry in the village: VC doubled";
  // Hex labels name units too; a pair that cannot fight is refused with the rule.
  EXPECT_TRUE(
      s.send({{"cmd", "preview_combat"}, {"attacker", "1306"}, {"defender", "1307"}})["ok"]);
  const json far = s.send({{"cmd", "preview_combat"}, {"attacker", "B-G2"}, {"defender", "O-I1"}});
  EXPECT_EQ(errorCode(far), "illegal_action") << far.dump();
  EXPECT_EQ(far["error"]["reason"], "not_adjacent");
  EXPECT_EQ(far["error"]["rule"], "C-GEN-2");
  const json fire = s.send({{"cmd", "preview_fire"}, {"gun", "B-A1"}, {"target", "O-L1"}});
  EXPECT_EQ(errorCode(fire), "illegal_action") << "no firing in the combat phase";
  EXPECT_EQ(fire["error"]["reason"], "wrong_phase");
}

TEST(EngineSession, FirePreviewAndChanceEventsOfTheBombardment) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}})["ok"]);
  ASSERT_TRUE(
      s.send({{"cmd", "set_state"}, {"state", goldenState("duel_bombardment.json")}})["ok"]);
  const json p = s.send({{"cmd", "preview_fire"}, {"gun", "B-A1"}, {"target", "O-C1"}});
  ASSERT_TRUE(p["ok"]) << p.dump();
  EXPECT_EQ(p["losses_by_d4"].size(), 4u);
  EXPECT_EQ(p["modifiers"]["target_type"], 1) << "cavalry +1";
  const json applied = s.send({{"cmd", "apply"}, {"text", "fire 0506>0604"}});
  ASSERT_TRUE(applied["ok"]) << applied.dump();
  const json chance = s.send({{"cmd", "chance"}});
  EXPECT_EQ(chance["event"]["kind"], "fire_die");
  EXPECT_EQ(chance["outcomes"].size(), 4u);
  const json state = s.send({{"cmd", "state"}});
  EXPECT_EQ(state["state"]["pending"]["kind"], "fire_die");
  EXPECT_TRUE(s.send({{"cmd", "set_state"}, {"state", state["state"]}})["ok"])
      << "round trip mid-fire";
  while (s.send({{"cmd", "chance"}})["chance"]) ASSERT_TRUE(s.send({{"cmd", "roll"}})["ok"]);
}

TEST(EngineSession, GenmoveReportsTheSearchAndCanPlayTheMove) {
  Session s;
  ASSERT_TRUE(s.send({{"cmd", "load"}, {"scenario", "duel"}, {"seed", 3}})["ok"]);
  const json legal = s.send({{"cmd", "legal"}});
  const json g = s.send({{"cmd", "genmove"}, {"agent", "mcts:sims=300"}, {"top", 3}});
  ASSERT_TRUE(g["ok"]) << g.dump();
  EXPECT_EQ(g["simulations"], 300);
  EXPECT_EQ(g["children"].size(), 3u);
  EXPECT_GE(g["children"][0]["visits"].get<int>(), g["children"][1]["visits"].get<int>());
  EXPECT_EQ(g["children"][0]["action"], g["action"]);
  ASSERT_FALSE(g["pv"].empty());
  EXPECT_EQ(g["pv"][0]["action"], g["action"]);
  bool listed = false;
  for (const json& a : legal["actions"]) listed = listed || a["action"] == g["action"];
  EXPECT_TRUE(listed) << "genmove chose an action that is not legal";
  EXPECT_TRUE(g["value"].get<double>() >= -1 && g["value"].get<double>() <= 1);
  EXPECT_FALSE(g.contains("applied"));

  // The same request with an explicit seed is reproducible.
  const json a = s.send({{"cmd", "genmove"}, {"agent", "mcts:sims=300"}, {"seed", 9}});
  const json b = s.send({{"cmd", "genmove"}, {"agent", "mcts:sims=300"}, {"seed", 9}});
  EXPECT_EQ(a["children"], b["children"]);

  const json played = s.send({{"cmd", "genmove"}, {"agent", "rule"}, {"play", true}});
  ASSERT_TRUE(played["ok"]) << played.dump();
  EXPECT_EQ(played["applied"], played["action"]);
  EXPECT_FALSE(played["events"].empty());

  EXPECT_EQ(errorCode(s.send({{"cmd", "genmove"}})), "bad_request");
  EXPECT_EQ(errorCode(s.send({{"cmd", "genmove"}, {"agent", "mcts:sims=0"}})), "invalid_input");
  EXPECT_EQ(errorCode(s.send({{"cmd", "genmove"}, {"agent", "rule"}, {"depth", 2}})),
            "bad_request");
}

}  // namespace
}  // namespace morne::test
