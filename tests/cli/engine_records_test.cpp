// Games as records in the engine protocol: undo to any earlier ply (dice included), save and
// load_game, replay to any ply, and records that cannot be replayed refused with the ply.

#include <gtest/gtest.h>

#include "tests/cli/test_process.h"
#include "tests/engine/session_client.h"

namespace morne::test {
namespace {

using nlohmann::json;

// Plays `plies` plies of duel with the rule agent and the session's dice; returns the state
// after each ply (index 0: the start).
std::vector<json> playSome(SessionClient& c, int plies) {
  c.ok({{"cmd", "load"}, {"scenario", "duel"}, {"seed", 5}});
  std::vector<json> states = {c.ok({{"cmd", "state"}})["state"]};
  for (int i = 0; i < plies; ++i) {
    const json status = c.ok({{"cmd", "result"}});
    if (status["terminal"] == true) break;
    const bool chance = c.ok({{"cmd", "chance"}})["chance"];
    if (chance) {
      c.ok({{"cmd", "roll"}});
    } else {
      c.ok({{"cmd", "genmove"}, {"agent", "rule"}, {"play", true}});
    }
    states.push_back(c.ok({{"cmd", "state"}})["state"]);
  }
  return states;
}

TEST(EngineRecords, UndoTakesBackTheLastActionWithItsDice) {
  SessionClient c;
  const std::vector<json> states = playSome(c, 40);
  ASSERT_EQ(states.size(), 41u);
  const json saved = c.ok({{"cmd", "save"}});
  const json& plies = saved["record"]["plies"];
  ASSERT_EQ(plies.size(), 40u);
  // The last action and every die after it.
  size_t last_action = plies.size() - 1;
  while (!plies[last_action].is_string()) --last_action;
  const json undone = c.ok({{"cmd", "undo"}});
  EXPECT_EQ(undone["ply"], last_action);
  EXPECT_EQ(undone["taken_back"], plies.size() - last_action);
  EXPECT_EQ(c.ok({{"cmd", "state"}})["state"], states[last_action]);
  // To any ply, and by a count.
  EXPECT_EQ(c.ok({{"cmd", "undo"}, {"to", 17}})["ply"], 17);
  EXPECT_EQ(c.ok({{"cmd", "state"}})["state"], states[17]);
  EXPECT_EQ(c.ok({{"cmd", "undo"}, {"plies", 5}})["ply"], 12);
  EXPECT_EQ(c.ok({{"cmd", "state"}})["state"], states[12]);
  EXPECT_EQ(errorCode(c.send({{"cmd", "undo"}, {"to", 13}})), "bad_request")
      << "undo does not go forward";
  EXPECT_EQ(c.ok({{"cmd", "save"}})["record"]["plies"].size(), 12u) << "undone plies are gone";
}

TEST(EngineRecords, SaveLoadAndReplayToAnyPly) {
  SessionClient c;
  const std::vector<json> states = playSome(c, 200);  // to the end of the game
  ASSERT_GT(states.size(), 40u);
  const auto plies = static_cast<int>(states.size()) - 1;
  const json record = c.ok({{"cmd", "save"}})["record"];
  EXPECT_EQ(record["format"], "morne-game/1");
  EXPECT_EQ(record["scenario"], "duel") << "a built-in scenario is named, not copied";
  EXPECT_EQ(record["seed"], 5);
  EXPECT_EQ(record["agents"]["blue"], "rule");

  SessionClient other;
  EXPECT_TRUE(record["result"].contains("winner")) << "the game ended";
  const json loaded = other.ok({{"cmd", "load_game"}, {"record", record}, {"ply", 30}});
  EXPECT_EQ(loaded["ply"], 30);
  EXPECT_EQ(loaded["plies"], plies);
  EXPECT_EQ(other.ok({{"cmd", "state"}})["state"], states[30]);
  for (int ply : {0, plies - 1, plies, 25}) {
    EXPECT_EQ(other.ok({{"cmd", "replay"}, {"ply", ply}})["ply"], ply);
    EXPECT_EQ(other.ok({{"cmd", "state"}})["state"], states[static_cast<size_t>(ply)]) << ply;
  }
  // A new ply from the middle of a replay replaces the rest of the record.
  other.ok({{"cmd", "replay"}, {"ply", 25}});
  if (other.ok({{"cmd", "chance"}})["chance"]) {
    other.ok({{"cmd", "roll"}});
  } else {
    other.ok({{"cmd", "apply"}, {"text", "end"}});
  }
  EXPECT_EQ(other.ok({{"cmd", "save"}})["record"]["plies"].size(), 26u);
}

TEST(EngineRecords, RecordsThatCannotBeReplayedAreRefusedWithThePly) {
  SessionClient c;
  playSome(c, 30);
  json record = c.ok({{"cmd", "save"}})["record"];
  size_t action = 10;
  while (!record["plies"][action].is_string()) ++action;
  json bad = record;
  bad["plies"][action] = "move 0101>0909";
  json r = c.send({{"cmd", "load_game"}, {"record", bad}});
  ASSERT_EQ(errorCode(r), "invalid_input") << r.dump();
  EXPECT_EQ(r["error"]["details"][0]["path"], "/plies/" + std::to_string(action)) << r.dump();

  bad = record;
  bad["scenario"] = "../../etc/passwd";
  r = c.send({{"cmd", "load_game"}, {"record", bad}});
  EXPECT_EQ(r["error"]["details"][0]["path"], "/scenario") << "only built-in names";

  bad = record;
  bad["plies"].push_back("end");
  bad["plies"].push_back("end");
  bad["result"] = {{"vp", {{"blue", 9}, {"orange", 0}}}};
  r = c.send({{"cmd", "load_game"}, {"record", bad}});
  EXPECT_EQ(errorCode(r), "invalid_input") << r.dump();

  // The failed loads left the game as it was.
  EXPECT_EQ(c.ok({{"cmd", "save"}})["record"], record);
}

// `morne play --record` writes a record the protocol replays to the same result, and never
// replaces an existing file.
TEST(EngineRecords, PlayWritesARecordThatReplays) {
  const std::string path = freshTestDir("play_record") + "/game.json";
  const ProcessResult r = runMorne(
      "play --scenario duel --blue rule --orange random --seed 6 --quiet --record " + path);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  SessionClient c;
  const json loaded = c.ok({{"cmd", "load_game"}, {"path", path}});
  EXPECT_EQ(loaded["ply"], loaded["plies"]);
  const json result = c.ok({{"cmd", "result"}});
  EXPECT_TRUE(result["terminal"]);
  const std::string winner =
      result["winner"].is_null()
          ? "draw"
          : "victory for " + std::string(result["winner"] == "blue" ? "blue" : "orange");
  EXPECT_NE(r.output.find(winner), std::string::npos) << r.output;
  const ProcessResult again = runMorne("play --scenario duel --seed 7 --quiet --record " + path);
  EXPECT_NE(again.exit_code, 0);
  EXPECT_NE(again.output.find("already exists"), std::string::npos) << again.output;
}

}  // namespace
}  // namespace morne::test
