// The external agent ("ext:cmd=..."): a program speaking the engine protocol plays as a built-in
// agent does. `morne engine` run as one plays the very games of the built-in kind it is asked
// for, with the same seeds; a program that fails, hangs, or answers nonsense ends the game with
// an error that names the agent, the request and the reason, never a hang or a crash.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "agents/agent_kinds.h"
#include "agents/game_runner.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "tests/cli/test_process.h"

namespace morne::test {
namespace {

const std::string kEngine = std::string("ext:cmd=") + MORNE_BINARY + " engine";

// The summary of a game of `blue` against `orange` on `scenario`, each agent seeded as the
// arena and `morne play` seed them.
agents::GameSummary play(const std::string& scenario, const std::string& blue,
                         const std::string& orange, uint64_t seed) {
  const auto sc = env::loadScenario(scenario);
  auto b = agents::makeAgent(blue, agents::agentSeed(seed, 0));
  auto o = agents::makeAgent(orange, agents::agentSeed(seed, 1));
  return agents::playGame(*sc, *b, *o, seed, nullptr);
}

void expectSameGame(const agents::GameSummary& a, const agents::GameSummary& b) {
  EXPECT_EQ(a.final_hash, b.final_hash);
  ASSERT_EQ(a.plies.size(), b.plies.size());
  for (size_t i = 0; i < a.plies.size(); ++i) {
    EXPECT_EQ(a.plies[i].chance, b.plies[i].chance) << "ply " << i;
    EXPECT_EQ(a.plies[i].chance ? a.plies[i].outcome : 0,
              b.plies[i].chance ? b.plies[i].outcome : 0);
    if (!a.plies[i].chance) {
      EXPECT_EQ(a.plies[i].action, b.plies[i].action) << "ply " << i;
    }
  }
  EXPECT_EQ(a.result.vp, b.result.vp);
  EXPECT_EQ(a.result.winner, b.result.winner);
}

TEST(ExternalAgent, MorneEngineAsAnExternalAgentPlaysTheBuiltInGames) {
  for (const uint64_t seed : {1, 2}) {
    expectSameGame(play("duel", kEngine + ",agent=random", "rule", seed),
                   play("duel", "random", "rule", seed));
    expectSameGame(play("duel", "rule", kEngine + ",agent=random", seed),
                   play("duel", "rule", "random", seed));
  }
  // A search keeps its tree from one genmove to the next, as the built-in agent does.
  expectSameGame(play("duel", kEngine + ",agent=mcts:sims=40", "greedy", 3),
                 play("duel", "mcts:sims=40", "greedy", 3));
}

// `morne play` and `morne selfplay` take it as any spec, with the same seeds.
TEST(ExternalAgent, PlaysInPlayAndSelfPlay) {
  const std::string ext = "'" + kEngine + ",agent=random'";
  const ProcessResult game =
      runMorne("play --scenario duel --blue " + ext + " --orange mcts:sims=30 --seed 4 --quiet");
  ASSERT_EQ(game.exit_code, 0) << game.output;
  EXPECT_EQ(
      game.output,
      runMorne("play --scenario duel --blue random --orange mcts:sims=30 --seed 4 --quiet").output);
  const std::string dir = freshTestDir("ext-selfplay");
  auto positions = [&](const std::string& agent, const std::string& out) {
    const ProcessResult r = runMorne("selfplay --scenario duel --games 3 --seed 5 --agent " +
                                     agent + " --out " + dir + "/" + out);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return r.output.substr(r.output.find(" positions recorded") - 3, 30);
  };
  EXPECT_EQ(positions("'" + kEngine + ",agent=rule'", "ext"), positions("rule", "rule"));
  std::filesystem::remove_all(dir);
}

TEST(ExternalAgent, ItsSpecReadsBack) {
  auto agent = agents::makeAgent(kEngine + ",agent=rule,timeout_ms=5000", 1);
  EXPECT_EQ(agent->spec(), kEngine + ",agent=rule,timeout_ms=5000");
  EXPECT_EQ(agents::makeAgent(agent->spec(), 1)->spec(), agent->spec());
}

// The message of the error that deciding the first move of duel with `spec` throws.
std::string failure(const std::string& spec) {
  try {
    const auto sc = env::loadScenario("duel");
    auto agent = agents::makeAgent(spec, 1);
    env::GameState s = env::newGame(*sc);
    agent->decide(s);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ExternalAgent, AProgramThatFailsEndsTheGameWithTheReason) {
  EXPECT_NE(failure("ext:cmd=no-such-program-of-morne")
                .find("cannot start no-such-program-of-morne: No such file or directory"),
            std::string::npos);
  EXPECT_NE(failure("ext").find("give the program to run"), std::string::npos);
  // Before it read the request or after: the race is the program's.
  const std::string ended = failure("ext:cmd=true");
  EXPECT_NE(ended.find("request 0 (load): true ended before it re"), std::string::npos) << ended;
  EXPECT_NE(ended.find("(exit status 0)"), std::string::npos) << ended;
  EXPECT_NE(failure("ext:cmd=sleep 30,timeout_ms=300").find("gave no reply within 300 ms"),
            std::string::npos);
  EXPECT_NE(failure("ext:cmd=yes").find("request 0 (load): the reply is not JSON: y"),
            std::string::npos)
      << failure("ext:cmd=yes");
  const std::string refuses = writeTempFile(
      "refuses.sh",
      "while read line; do echo '{\"ok\":false,\"error\":{\"message\":\"no\"}}'; done");
  EXPECT_NE(failure("ext:cmd=sh " + refuses).find("request 0 (load): the program refused: \"no\""),
            std::string::npos)
      << failure("ext:cmd=sh " + refuses);
  const std::string illegal =
      writeTempFile("illegal.sh", "while read line; do echo '{\"ok\":true,\"index\":99999}'; done");
  EXPECT_NE(failure("ext:cmd=sh " + illegal).find("request 1: \"index\" 99999 is no action"),
            std::string::npos)
      << failure("ext:cmd=sh " + illegal);
  const std::string wrong = writeTempFile(
      "wrong.sh", "while read line; do echo '{\"ok\":true,\"text\":\"move 0101>0102\"}'; done");
  EXPECT_NE(failure("ext:cmd=sh " + wrong).find("is not legal here"), std::string::npos)
      << failure("ext:cmd=sh " + wrong);
  std::filesystem::remove(refuses);
  std::filesystem::remove(illegal);
  std::filesystem::remove(wrong);
}

// An index is compared as the number it is (2^32 + i is no action, and a negative one is named
// as sent); a reply nested past the 64-level limit is refused before it is parsed.
TEST(ExternalAgent, RepliesAreReadAsTheNumbersAndDepthsTheyHave) {
  const std::string wide = writeTempFile("wide.sh",
                                         "read line; echo '{\"ok\":true}'; while read line; do "
                                         "echo '{\"ok\":true,\"index\":4294967296}'; done");
  EXPECT_NE(failure("ext:cmd=sh " + wide).find("\"index\" 4294967296 is no action"),
            std::string::npos)
      << failure("ext:cmd=sh " + wide);
  const std::string negative = writeTempFile("negative.sh",
                                             "read line; echo '{\"ok\":true}'; while read line; do "
                                             "echo '{\"ok\":true,\"index\":-4294967295}'; done");
  EXPECT_NE(failure("ext:cmd=sh " + negative).find("\"index\" -4294967295 is no action"),
            std::string::npos)
      << failure("ext:cmd=sh " + negative);
  const std::string deep = writeTempFile(
      "deep.py",
      "import sys\nfor line in sys.stdin:\n    print('[' * 100000 + ']' * 100000, flush=True)\n");
  EXPECT_NE(failure("ext:cmd=/usr/bin/python3 " + deep).find("nested 100000 levels deep"),
            std::string::npos)
      << failure("ext:cmd=/usr/bin/python3 " + deep);
  for (const std::string& f : {wide, negative, deep}) std::filesystem::remove(f);
}

// What a program starts goes when its game ends: its whole process group is killed.
TEST(ExternalAgent, WhatTheProgramStartedEndsWithIt) {
  const std::string pid_file = writeTempFile("forked.pid", "");
  const std::string forks = writeTempFile(
      "forks.sh", "sleep 300 < /dev/null > /dev/null 2>&1 & echo $! > " + pid_file + "; exit 0");
  failure("ext:cmd=sh " + forks + ",timeout_ms=2000");
  const ProcessResult r = runShell("p=$(cat " + pid_file +
                                   "); for i in $(seq 200); do kill -0 $p 2>/dev/null || exit 0; "
                                   "sleep 0.01; done; kill $p; exit 1");
  EXPECT_EQ(r.exit_code, 0) << "the program's child outlived its game";
  std::filesystem::remove(forks);
  std::filesystem::remove(pid_file);
}

// In an arena, a program that fails ends its own games with the reason; the other games are
// played, reported, and the arena exits 1 saying how many ended so.
TEST(ExternalAgent, AFailingProgramEndsItsGamesNotTheArena) {
  const std::string dir = freshTestDir("ext-arena");
  const ProcessResult r = runMorne(
      "arena --agents \"random rule 'ext:cmd=true'\" --scenarios duel "
      "--rounds 1 --quiet --out " +
      dir);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("4 game(s) ended with an error"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ext:cmd=true, request 0 (load)"), std::string::npos) << r.output;
  std::ifstream games(dir + "/games.csv");
  int rows = -1;  // the header
  for (std::string line; std::getline(games, line);) ++rows;
  EXPECT_EQ(rows, 2);  // random against rule, both sides
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace morne::test
