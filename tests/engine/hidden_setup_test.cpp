// Hidden set-up (S-4) in the engine protocol: a session bound to the second player does not
// see where the first player placed his units until game turn 2: not in the state, the events,
// the actions reported, the record or the first player's reasoning; and an agent setting up as
// the second player decides from what it may know.

#include <gtest/gtest.h>

#include "tests/engine/session_client.h"
#include "tests/env/test_map.h"

namespace morne::test {
namespace {

using nlohmann::json;

// Blue places P1 and P2 in its zone; orange places Q in its own; G and O stand fixed.
json hiddenSetupScenario() {
  TestMap m;
  m.corps(0, "I");
  m.unit({.id = "G", .type = "general", .at = {0, 3}, .corps = "I", .radius = 4});
  m.unit({.id = "P1", .corps = "I", .placed_at_setup = true});
  m.unit({.id = "P2", .corps = "I", .placed_at_setup = true});
  m.setupZone(0, {{0, 1}, {1, 1}, {2, 1}});
  m.unit({.id = "O", .side = 1, .at = {0, -4}});
  m.unit({.id = "Q", .side = 1, .placed_at_setup = true});
  m.setupZone(1, {{0, -3}, {1, -3}});
  m.turns(2);
  return m.toJson();
}

bool mentions(const json& reply, const std::string& what) {
  return reply.dump().find(what) != std::string::npos;
}

// The hexes of blue's zone, as labels: none of them may appear in what orange is told.
std::vector<std::string> blueZone() {
  return {TestMap::label({0, 1}), TestMap::label({1, 1}), TestMap::label({2, 1})};
}

TEST(HiddenSetup, TheSecondPlayerDoesNotSeeTheFirstPlayersPlacements_S_4) {
  SessionClient orange;
  orange.ok({{"cmd", "load"}, {"json", hiddenSetupScenario()}, {"seed", 3}});
  EXPECT_EQ(orange.ok({{"cmd", "bind"}, {"side", "orange"}})["side"], "orange");
  EXPECT_EQ(errorCode(orange.send({{"cmd", "bind"}, {"side", "blue"}})), "bad_request")
      << "a session serves one side for good";
  // Blue's decisions, made by an agent in the same session, are played but not shown.
  const json analysed = orange.send({{"cmd", "genmove"}, {"agent", "rule"}});
  EXPECT_EQ(analysed["error"]["reason"], "hidden_information") << analysed.dump();
  std::vector<json> told;
  for (int ply = 0; ply < 40; ++ply) {
    const json status = orange.ok({{"cmd", "legal"}})["status"];
    if (status["side"] == "orange" || status["terminal"] == true) break;
    if (status["chance"] == true) {
      told.push_back(orange.ok({{"cmd", "roll"}}));
      continue;
    }
    const json r = orange.ok({{"cmd", "genmove"}, {"agent", "rule"}, {"play", true}});
    EXPECT_EQ(r["hidden"], true) << r.dump();
    EXPECT_FALSE(r.contains("children"));
    told.push_back(r);
  }
  const json state = orange.ok({{"cmd", "state"}});
  EXPECT_EQ(state["state"]["turn"], 1);
  EXPECT_EQ(state["state"]["side"], "orange");
  told.push_back(orange.ok({{"cmd", "show"}}));
  EXPECT_EQ(state["hidden"], json::array({"P1", "P2"})) << state.dump();
  for (const json& u : state["state"]["units"]) {
    if (u["id"] == "P1" || u["id"] == "P2") {
      EXPECT_TRUE(u["hex"].is_null()) << u.dump();
    }
  }
  for (const json& r : told) {  // plies played and the map: no word of P1 and P2
    EXPECT_FALSE(mentions(r, "\"P1\"") || mentions(r, "\"P2\"")) << r.dump();
    EXPECT_FALSE(mentions(r, "P1 0") || mentions(r, "P2 0")) << r.dump();
  }
  EXPECT_EQ(orange.send({{"cmd", "save"}})["error"]["reason"], "hidden_information");
  for (const std::string& hex : blueZone()) {
    const json r = orange.send({{"cmd", "reachable"}, {"unit", hex}});
    EXPECT_TRUE(r.value("error", json::object()).value("reason", "") == "no_unit" ||
                (r["unit"] != "P1" && r["unit"] != "P2"))
        << "a hex label names no hidden unit: " << r;
  }

  // From game turn 2 everything is shown.
  for (int ply = 0; ply < 400; ++ply) {
    const json status = orange.ok({{"cmd", "legal"}})["status"];
    if (status["turn"] == 2 || status["terminal"] == true) break;
    if (status["chance"] == true) {
      orange.ok({{"cmd", "roll"}});
    } else {
      orange.ok({{"cmd", "genmove"}, {"agent", "rule"}, {"play", true}});
    }
  }
  EXPECT_TRUE(orange.ok({{"cmd", "state"}})["hidden"].empty());
  EXPECT_TRUE(mentions(orange.ok({{"cmd", "save"}}), "\"place "));
}

TEST(HiddenSetup, AgentsSettingUpAsTheSecondPlayerDecideFromWhatTheyMayKnow) {
  // Two games in which blue places its units differently: orange's agent, which may not see
  // them, answers the same in both.
  std::vector<json> answers;
  for (int variant = 0; variant < 2; ++variant) {
    SessionClient c;
    c.ok({{"cmd", "load"}, {"json", hiddenSetupScenario()}, {"seed", 3}});
    const std::vector<std::string> zone = blueZone();
    c.ok({{"cmd", "apply"}, {"text", "place " + zone[variant == 0 ? 0 : 2]}});
    c.ok({{"cmd", "apply"}, {"text", "place " + zone[1]}});
    EXPECT_TRUE(mentions(c.ok({{"cmd", "state"}}), zone[1])) << "an unbound session sees all";
    while (c.ok({{"cmd", "legal"}})["status"]["side"] == "blue") {
      c.ok({{"cmd", "apply"}, {"text", "end"}});
    }
    const json r = c.ok({{"cmd", "genmove"}, {"agent", "mcts:sims=200"}, {"seed", 9}});
    answers.push_back({r["text"], r["children"]});
  }
  EXPECT_EQ(answers[0], answers[1]) << "the search saw neither placement";
}

}  // namespace
}  // namespace morne::test
