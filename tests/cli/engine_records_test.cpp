// Games as records in the engine protocol: undo to any earlier ply (dice included), save and
// load_game, replay to any ply, and records that cannot be replayed refused with the ply.

#include <gtest/gtest.h>

#include <set>

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
  // The record's own next ply from the middle of a replay moves on and keeps the rest.
  other.ok({{"cmd", "replay"}, {"ply", 25}});
  const json& next = record["plies"][25];
  const json same = next.is_string() ? json{{"cmd", "apply"}, {"text", next}}
                                     : json{{"cmd", "apply"}, {"outcome", next["outcome"]}};
  const json kept = other.ok(same);
  EXPECT_EQ(kept["ply"], 26);
  EXPECT_EQ(kept["plies"], plies);
  // Another ply replaces the rest of the record, a takeback the record notes.
  other.ok({{"cmd", "replay"}, {"ply", 25}});
  json different;
  const json chance = other.ok({{"cmd", "chance"}});
  if (chance["chance"]) {
    for (const json& o : chance["outcomes"]) {
      if (o["value"] != next["outcome"]) different = {{"cmd", "apply"}, {"outcome", o["value"]}};
    }
  } else {
    const json legal = other.ok({{"cmd", "legal"}});
    for (const json& a : legal["actions"]) {
      if (a["text"] != next) different = {{"cmd", "apply"}, {"text", a["text"]}};
    }
  }
  ASSERT_FALSE(different.is_null()) << "ply 25 has another choice";
  EXPECT_EQ(other.ok(different)["plies"], 26);
  const json replaced = other.ok({{"cmd", "save"}})["record"];
  EXPECT_EQ(replaced["plies"].size(), 26u);
  EXPECT_EQ(replaced["takebacks"],
            json::parse(R"([{"ply": 25, "taken_back": )" + std::to_string(plies - 25) + "}]"));
}

// Honest takebacks: an attack taken back and made again meets the same dice, on every seed
// tried, so undo cannot re-roll; a game loaded with free_rerolls (an analysis game) draws new
// dice. The record notes each takeback and says which game it was, through save and load_game.
TEST(EngineRecords, AnAttackTakenBackAndMadeAgainMeetsTheSameDice) {
  // B-C1 at 0707 walks north into duel's marsh at 0704, whose test is a d4 (MV-MARSH-1).
  const auto marshDice = [](SessionClient& c, bool free_rerolls, uint64_t seed, int tries) {
    c.ok({{"cmd", "load"}, {"scenario", "duel"}, {"seed", seed}, {"free_rerolls", free_rerolls}});
    c.ok({{"cmd", "apply"}, {"text", "move 0707>0706"}});
    c.ok({{"cmd", "apply"}, {"text", "move 0706>0705"}});
    std::vector<int> dice;
    for (int i = 0; i < tries; ++i) {
      if (i > 0) {
        EXPECT_EQ(c.ok({{"cmd", "undo"}})["taken_back"], 2) << "the step and its die";
      }
      c.ok({{"cmd", "apply"}, {"text", "move 0705>0704"}});
      EXPECT_EQ(c.ok({{"cmd", "chance"}})["event"]["kind"], "marsh_test");
      dice.push_back(c.ok({{"cmd", "roll"}})["outcome"].get<int>());
    }
    return dice;
  };
  std::set<int> first_dice;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    SessionClient c;
    const std::vector<int> dice = marshDice(c, false, seed, 6);
    EXPECT_EQ(std::set<int>(dice.begin(), dice.end()).size(), 1u) << "seed " << seed;
    first_dice.insert(dice[0]);
  }
  EXPECT_GT(first_dice.size(), 1u) << "the seed still decides the dice";

  SessionClient analysis;
  const std::vector<int> rerolled = marshDice(analysis, true, 1, 12);
  EXPECT_GT(std::set<int>(rerolled.begin(), rerolled.end()).size(), 1u);
  const json record = analysis.ok({{"cmd", "save"}})["record"];
  EXPECT_EQ(record["free_rerolls"], true);
  ASSERT_EQ(record["takebacks"].size(), 11u);
  EXPECT_EQ(record["takebacks"][0], json::parse(R"({"ply": 2, "taken_back": 2})"));

  SessionClient reloaded;
  reloaded.ok({{"cmd", "load_game"}, {"record", record}});
  EXPECT_EQ(reloaded.ok({{"cmd", "save"}})["record"], record);

  SessionClient plain;
  marshDice(plain, false, 1, 1);
  const json unmarked = plain.ok({{"cmd", "save"}})["record"];
  EXPECT_FALSE(unmarked.contains("free_rerolls")) << "written only when set";
  EXPECT_FALSE(unmarked.contains("takebacks"));
}

// A record's takeback notes and analysis mark are checked like the rest of it.
TEST(EngineRecords, DamagedTakebackNotesAreRefusedWithTheirPlace) {
  SessionClient c;
  playSome(c, 10);
  const json record = c.ok({{"cmd", "save"}})["record"];
  const auto refusal = [&](const json& takebacks, const json& free_rerolls) {
    json bad = record;
    bad["takebacks"] = takebacks;
    bad["free_rerolls"] = free_rerolls;
    const json r = c.send({{"cmd", "load_game"}, {"record", bad}});
    EXPECT_EQ(errorCode(r), "invalid_input") << r.dump();
    return r["error"]["details"][0]["path"].get<std::string>();
  };
  EXPECT_EQ(refusal(json::parse(R"([{"ply": 3, "taken_back": 0}])"), false),
            "/takebacks/0/taken_back");
  EXPECT_EQ(
      refusal(json::parse(R"([{"ply": 3, "taken_back": 1}, {"ply": -1, "taken_back": 1}])"), false),
      "/takebacks/1/ply");
  EXPECT_EQ(refusal(json::parse(R"([{"ply": 3}])"), false), "/takebacks/0");
  EXPECT_EQ(refusal(json::array(), "yes"), "/free_rerolls");
  EXPECT_EQ(errorCode(c.send({{"cmd", "load"}, {"scenario", "duel"}, {"free_rerolls", 1}})),
            "bad_request");
  EXPECT_EQ(c.ok({{"cmd", "save"}})["record"], record) << "the refusals changed nothing";
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
