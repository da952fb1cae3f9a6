// What a new user meets first, on the real binary: help that answers, an honest version line,
// a network file in a folder that does not exist yet, the engine answering "help", output that
// shows line by line in a pipe, a map with its key, and numbers written as people write them.

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli/test_process.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

bool has(const ProcessResult& r, const std::string& text) {
  return r.output.find(text) != std::string::npos;
}

TEST(Newcomer, HelpAnswersEveryWayItIsAsked) {
  for (const char* ask : {"--help", "-h", "help"}) {
    const ProcessResult r = runMorne(ask);
    EXPECT_EQ(r.exit_code, 0) << ask << ": " << r.output;
    EXPECT_TRUE(has(r, "commands:")) << ask;
    EXPECT_FALSE(has(r, "unknown command")) << ask;
  }
  const ProcessResult unknown = runMorne("help foo");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_TRUE(has(unknown, "unknown command \"foo\"")) << unknown.output;
  const ProcessResult engine = runMorne("help engine");
  EXPECT_EQ(engine.exit_code, 0);
  EXPECT_TRUE(has(engine, "docs/protocol.md")) << engine.output;
  const ProcessResult selfplay = runMorne("selfplay --help");
  EXPECT_TRUE(has(selfplay, "(=0.1)")) << selfplay.output;
  EXPECT_FALSE(has(selfplay, "0.1000000")) << selfplay.output;
}

TEST(Newcomer, VersionNamesTheLinkedLibTorch) {
  const ProcessResult r = runMorne("version");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_TRUE(has(r, "LibTorch:         LibTorch ")) << r.output;
  EXPECT_FALSE(has(r, "not linked")) << r.output;
}

TEST(Newcomer, NnInitCreatesItsFolderAndKeepsAnExistingFile) {
  const fs::path dir = freshTestDir("nets");
  const std::string net = (dir / "nets" / "duel-g0.pt").string();
  const ProcessResult r = runMorne("nn init --scenario duel --out " + net);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(net));
  const auto written = fs::last_write_time(net);
  const ProcessResult again = runMorne("nn init --scenario duel --out " + net);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(has(again, "already exists; give --force")) << again.output;
  EXPECT_EQ(fs::last_write_time(net), written);
  EXPECT_EQ(runMorne("nn init --force --scenario duel --out " + net).exit_code, 0);
  // The README's next line: self-play with that network.
  const ProcessResult play = runMorne("selfplay --quiet --scenario duel --agent az:model=" + net +
                                      ",sims=8 --games 1 --out " + (dir / "selfplay").string());
  EXPECT_EQ(play.exit_code, 0) << play.output;
  fs::remove_all(dir);
}

TEST(Newcomer, EngineAnswersHelpAndBareWords) {
  const ProcessResult r = runMorne("engine", "help\n{\"cmd\":\"help\"}\n");
  EXPECT_TRUE(has(r, "\\\"help\\\" is not a JSON request")) << r.output;
  EXPECT_TRUE(has(r, "\"docs\":\"docs/protocol.md\"")) << r.output;
  EXPECT_TRUE(has(r, "\"commands\":[")) << r.output;
}

TEST(Newcomer, OutputShowsLineByLineInAPipe) {
  // A slow game into a FIFO: its first lines must arrive at once, not when a 4 KB buffer fills.
  const ProcessResult r = runShell(
      "f=$(mktemp -u); mkfifo $f; MORNE play --scenario crossing --blue mcts:sims=100000 "
      "--orange mcts:sims=100000 > $f & pid=$!; timeout 10 head -n 3 $f > /dev/null; "
      "echo head=$?; kill $pid; wait $pid 2>/dev/null; rm -f $f");
  EXPECT_TRUE(has(r, "head=0")) << r.output;
}

TEST(Newcomer, ScenarioShowExplainsItsSymbols) {
  const ProcessResult r = runMorne("scenario show duel");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_TRUE(has(r, "key: each hex is \"tlUV\"")) << r.output;
  EXPECT_TRUE(has(r, "terrain: . clear")) << r.output;
  EXPECT_TRUE(has(r, "I/i infantry")) << r.output;
}

TEST(Newcomer, PlayQuietPrintsTheResultAlone) {
  const ProcessResult r = runMorne("play --quiet --scenario duel --blue rule");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.rfind("result: ", 0), 0u) << r.output;
}

}  // namespace
}  // namespace morne::test
