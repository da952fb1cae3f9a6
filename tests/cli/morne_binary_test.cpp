// The `morne` binary driven as a user drives it: the engine protocol over stdin/stdout (bad
// input included), the subcommands' exit codes and messages.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/test_process.h"

namespace morne::test {
namespace {

using nlohmann::json;

std::vector<json> replies(const std::string& output) {
  std::vector<json> out;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) out.push_back(json::parse(line));
  return out;
}

TEST(MorneBinary, EngineProtocolSession) {
  const std::string input =
      "{\"cmd\":\"protocol\",\"id\":1}\n"
      "this is not json\n"
      "\n"
      "{\"cmd\":\"load\",\"scenario\":\"duel\",\"id\":2}\n"
      "{\"cmd\":\"teleport\",\"id\":3}\n"
      "{\"cmd\":\"apply\",\"text\":\"move 0507>0408\",\"id\":4}\n"
      "{\"cmd\":\"apply\",\"text\":\"move 0307>0306\",\"id\":5}\n"
      "{\"cmd\":\"legal\",\"id\":6}\n"
      "{\"cmd\":\"quit\",\"id\":7}\n"
      "{\"cmd\":\"legal\",\"id\":8}\n";
  const ProcessResult r = runMorne("engine", input);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<json> out = replies(r.output);
  ASSERT_EQ(out.size(), 8u) << r.output;  // the blank line gets no reply, nothing after quit
  EXPECT_EQ(out[0]["protocol"], "morne-engine");
  EXPECT_EQ(out[0]["version"], 3);
  EXPECT_EQ(out[1]["error"]["code"], "parse_error");
  EXPECT_TRUE(out[2]["ok"]);
  EXPECT_EQ(out[3]["error"]["code"], "unknown_command");
  EXPECT_EQ(out[3]["id"], 3);
  EXPECT_EQ(out[4]["error"]["code"], "illegal_action");
  EXPECT_NE(out[4]["error"]["message"].get<std::string>().find("holds B-G"), std::string::npos);
  EXPECT_TRUE(out[5]["ok"]) << out[5].dump();
  EXPECT_TRUE(out[6]["ok"]);
  EXPECT_EQ(out[7]["cmd"], "quit");
}

TEST(MorneBinary, PlayPrintsTheGameAndTheResult) {
  const ProcessResult r = runMorne("play --scenario duel --blue rule --orange random --seed 4");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("== game turn 1, blue"), std::string::npos);
  EXPECT_NE(r.output.find("== game turn 6, orange"), std::string::npos);
  EXPECT_NE(r.output.find("result: blue"), std::string::npos);
  // Same seed, same game: identical logs once the timing line is dropped.
  auto withoutTiming = [](const std::string& text) {
    return text.substr(0, text.find(" plies ("));
  };
  EXPECT_EQ(
      withoutTiming(runMorne("play --scenario duel --blue rule --orange random --seed 4").output),
      withoutTiming(r.output));
  EXPECT_NE(
      withoutTiming(runMorne("play --scenario duel --blue rule --orange random --seed 5").output),
      withoutTiming(r.output));
}

TEST(MorneBinary, ScenarioValidateReportsProblems) {
  const std::string bad = writeTempFile("bad.json", R"({"format": "morne-scenario/1", "name": "x",
    "turns": 3, "map": {"width": 2, "height": 1, "terrain": [". z"]}, "sides": []})");
  const ProcessResult r = runMorne("scenario validate duel " + bad);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("duel: ok"), std::string::npos);
  EXPECT_NE(r.output.find("bad.json: /map/terrain/0: hex 0201: unknown terrain code \"z\""),
            std::string::npos)
      << r.output;
  const ProcessResult missing = runMorne("scenario validate no_such_file.json");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.output.find("no such file"), std::string::npos);
}

TEST(MorneBinary, ConfigFilesAndOverrides) {
  const std::string cfg = writeTempFile("play.cfg", "# comment\nscenario = duel\nseed = 9\n");
  const ProcessResult ok = runMorne("play --blue rule --config " + cfg + " --set seed=10");
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("scenario duel"), std::string::npos);
  EXPECT_NE(ok.output.find("seed 10"), std::string::npos) << "--set wins over the file";
  const ProcessResult quiet = runMorne("play --quiet --config " + cfg);
  ASSERT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_EQ(quiet.output.rfind("result: ", 0), 0u) << "--quiet prints the result alone";
  EXPECT_EQ(std::count(quiet.output.begin(), quiet.output.end(), '\n'), 1) << quiet.output;

  const std::string bad = writeTempFile("bad.cfg", "scenario = duel\n\nspeed = 3\n");
  const ProcessResult unknown = runMorne("play --config " + bad);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("bad.cfg:3: unknown key \"speed\""), std::string::npos)
      << unknown.output;

  const ProcessResult bad_set = runMorne("play --set colour=red");
  EXPECT_EQ(bad_set.exit_code, 2);
  EXPECT_NE(bad_set.output.find("--set: unknown key \"colour\""), std::string::npos);
  const ProcessResult bad_value = runMorne("play --set seed=many");
  EXPECT_EQ(bad_value.exit_code, 2);
  EXPECT_NE(bad_value.output.find("seed = \"many\""), std::string::npos) << bad_value.output;
  EXPECT_EQ(runMorne("nonsense").exit_code, 1);
  const ProcessResult help = runMorne("help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* kind : {"\n  random ", "\n  rule ", "\n  mcts ", "\n  az "}) {
    EXPECT_NE(help.output.find(kind), std::string::npos) << "the agent kinds: " << help.output;
  }
  const std::string version = runMorne("version").output;
  EXPECT_NE(version.find("git revision"), std::string::npos);
  // Regression: an address;undefined build said "sanitizers: address".
  const std::string sanitizers = MORNE_SANITIZERS;
  EXPECT_NE(version.find("sanitizers:       " + (sanitizers.empty() ? "none" : sanitizers) + "\n"),
            std::string::npos)
      << version;
}

TEST(MorneBinary, ArenaWritesItsTablesAndReports) {
  const std::string out =
      std::filesystem::path(writeTempFile("arena.keep", "")).parent_path() / "arena";
  const ProcessResult r = runMorne(
      "arena --agents 'rule random' --scenarios duel,pyramids --rounds 2 --jobs 2 "
      "--quiet --out " +
      out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("== duel: 4 games"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("== all: 8 games"), std::string::npos);
  EXPECT_NE(r.output.find("side advantage (blue)"), std::string::npos);
  std::ifstream games(out + "/games.csv");
  int lines = 0;
  for (std::string line; std::getline(games, line);) ++lines;
  EXPECT_EQ(lines, 1 + 8);
  std::ifstream summary_file(out + "/summary.json");
  const json summary = json::parse(summary_file);
  EXPECT_EQ(summary["format"], "morne-arena/2");
  EXPECT_EQ(summary["scopes"].size(), 3u);  // duel, pyramids, all
  EXPECT_EQ(summary["scopes"][2]["games"], 8);
  EXPECT_TRUE(summary["scopes"][2]["agents"][1]["elo"].contains("low95"));
  EXPECT_EQ(summary["scopes"][2]["elo_prior_draws"], 1.0);
  std::ifstream svg_file(out + "/elo.svg");
  std::stringstream svg;
  svg << svg_file.rdbuf();
  EXPECT_EQ(svg.str().rfind("<svg", 0), 0u);
  EXPECT_NE(svg.str().find("text-anchor=\"middle\""), std::string::npos) << "axis tick labels";
  EXPECT_NE(svg.str().find("stroke=\"#e4e4e4\""), std::string::npos) << "grid lines";
  EXPECT_TRUE(std::filesystem::exists(out + "/ratings.csv"));
  EXPECT_TRUE(std::filesystem::exists(out + "/pairs.csv"));

  const ProcessResult lonely = runMorne("arena --agents rule --out ''");
  EXPECT_EQ(lonely.exit_code, 2);
  EXPECT_NE(lonely.output.find("at least two agent specs"), std::string::npos) << lonely.output;
  const ProcessResult bad_spec = runMorne("arena --agents 'rule mcts:sims=many' --out ''");
  EXPECT_EQ(bad_spec.exit_code, 2);
  EXPECT_NE(bad_spec.output.find("sims=many"), std::string::npos) << bad_spec.output;
}

TEST(MorneBinary, ShippedConfigFilesAreAccepted) {
  const std::string dir = std::string(MORNE_SOURCE_DIR) + "/configs/";
  for (const std::string& args :
       {"play --quiet --set scenario=duel --set blue=rule --config " + dir + "play.cfg",
        "arena --quiet --set rounds=1 --set scenarios=duel --set 'agents=rule random' --set out= "
        "--config " +
            dir + "arena.cfg",
        "bench env --set seconds=0.05 --set scenario=duel --config " + dir + "bench.cfg",
        "perft --set depth=2 --config " + dir + "perft.cfg"}) {
    const ProcessResult r = runMorne(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.output;
  }
  const ProcessResult engine =
      runMorne("engine --config " + dir + "engine.cfg", "{\"cmd\":\"quit\"}\n");
  EXPECT_EQ(engine.exit_code, 0) << engine.output;
}

TEST(MorneBinary, PerftAndBenchRun) {
  const ProcessResult perft = runMorne("perft --depth 3");
  ASSERT_EQ(perft.exit_code, 0) << perft.output;
  EXPECT_NE(perft.output.find("depth  3"), std::string::npos);
  const ProcessResult bench = runMorne("bench env --scenario duel --seconds 0.2 --repeats 2");
  ASSERT_EQ(bench.exit_code, 0) << bench.output;
  for (const char* row : {"copy / memcpy", "check: two memcpy / memcpy", "median", "load average"})
    EXPECT_NE(bench.output.find(row), std::string::npos) << row << "\n" << bench.output;
  EXPECT_NE(runMorne("bench env --repeats 0").exit_code, 0);
  const ProcessResult mcts = runMorne("bench mcts --scenario duel --seconds 0.2");
  ASSERT_EQ(mcts.exit_code, 0) << mcts.output;
  EXPECT_NE(mcts.output.find("speed-up"), std::string::npos);
  const ProcessResult train =
      runMorne("bench train --scenario duel --seconds 0.4 --repeats 1 --threads 1");
  ASSERT_EQ(train.exit_code, 0) << train.output;
  EXPECT_NE(train.output.find("learner / plain"), std::string::npos) << train.output;
}

// LibTorch loads with the first network only (nn/torch_library.h): a game of rule agents never
// loads it, `version` (which prints its runtime) does, and without the library beside the
// binary a network command says which library it could not load, while the rest still works.
TEST(MorneBinary, OnlyACommandWithANetworkLoadsLibTorch) {
  const auto loads = [](const std::string& args) {
    const ProcessResult r = runShell("LD_DEBUG=files MORNE " + args + " 2>&1");
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.output.substr(0, 2000);
    return r.output.find("libtorch_cpu") != std::string::npos;
  };
  EXPECT_FALSE(loads("play --scenario duel --blue rule --orange random --seed 4"));
  EXPECT_FALSE(loads("help"));
  EXPECT_TRUE(loads("version"));

  const std::string dir = freshTestDir("no-torch");
  const ProcessResult alone = runShell("cp MORNE " + dir + "/morne && cd " + dir +
                                       " && ./morne perft --depth 2 && ./morne nn init --scenario "
                                       "duel --out net.pt; echo \"exit $?\"");
  EXPECT_NE(alone.output.find("depth  2"), std::string::npos) << alone.output;
  EXPECT_NE(alone.output.find("cannot load libmorne_torch.so"), std::string::npos) << alone.output;
  EXPECT_NE(alone.output.find("exit 2"), std::string::npos) << alone.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace morne::test
