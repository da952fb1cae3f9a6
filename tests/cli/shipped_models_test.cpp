// The trained networks shipped in models/: each matches its model card (size, CRC-32, scenario,
// the scenarios it plays, encoder version, shape, weights checksum, as `morne nn info` reads
// them), its measured matches add up, and it plays a whole game by its name on every scenario
// it plays, as a user's agent spec names it.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "env/io/crc32.h"
#include "tests/cli/test_process.h"
#include "tests/file_bytes.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kModels = std::string(MORNE_SOURCE_DIR) + "/models";

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ShippedModels, EveryModelMatchesItsCardAndPlaysAGameByName) {
  const std::vector<std::string> models = filesEndingWith(kModels, ".pt");
  ASSERT_FALSE(models.empty()) << "no network in " << kModels;
  ASSERT_EQ(setenv("MORNE_MODELS", kModels.c_str(), 1), 0);
  for (const std::string& file : models) {
    const std::string name = fs::path(file).stem().string();
    SCOPED_TRACE(name);
    const std::string card_path = kModels + "/" + name + ".json";
    ASSERT_TRUE(fs::exists(card_path)) << "no model card " << card_path;
    const json card = json::parse(fileBytes(card_path));
    EXPECT_EQ(card.at("format"), "morne-model-card/1");
    EXPECT_EQ(card.at("name"), name);
    EXPECT_EQ(card.at("file"), name + ".pt");
    const std::string bytes = fileBytes(file);
    EXPECT_EQ(card.at("bytes").get<size_t>(), bytes.size());
    EXPECT_EQ(card.at("crc32").get<uint32_t>(), env::crc32Of(bytes));
    EXPECT_LT(bytes.size(), 4u << 20) << "a shipped model stays a few MB at most";

    const ProcessResult info = runMorne("nn info " + file);
    ASSERT_EQ(info.exit_code, 0) << info.output;
    const std::string scenario = card.at("scenario");
    EXPECT_TRUE(has(info.output, "scenario:        " + scenario + "\n")) << info.output;
    const std::vector<std::string> plays = card.at("plays");
    ASSERT_FALSE(plays.empty()) << "a card names the scenarios its model plays";
    std::string plays_line = "plays:           ";
    for (size_t i = 0; i < plays.size(); ++i) plays_line += (i ? ", " : "") + plays[i];
    EXPECT_TRUE(has(info.output, plays_line)) << info.output;
    const json& in = card.at("input");
    const int height = in.at("height"), width = in.at("width");
    const std::string grid = height == 0 ? std::string("any map")
                                         : std::to_string(height) + " x " + std::to_string(width);
    EXPECT_TRUE(has(info.output, std::to_string(in.at("planes").get<int>()) + " planes x " + grid +
                                     ", " + std::to_string(in.at("globals").get<int>()) +
                                     " global features (encoder version " +
                                     std::to_string(card.at("encoder_version").get<int>()) + ")"))
        << info.output;
    EXPECT_TRUE(has(info.output, std::to_string(card.at("blocks").get<int>()) +
                                     " residual blocks x " +
                                     std::to_string(card.at("channels").get<int>()) + " channels"))
        << info.output;
    EXPECT_TRUE(has(info.output, "checksum " + card.at("weights_checksum").get<std::string>()))
        << info.output;
    EXPECT_TRUE(has(info.output, card.at("trained_by").get<std::string>())) << info.output;
    EXPECT_FALSE(has(info.output, "\"/")) << "a machine's path in the provenance";

    const json& strength = card.at("strength");
    ASSERT_FALSE(strength.empty()) << "a card says how strong its model is";
    for (const json& match : strength) {
      const int games = match.at("games");
      EXPECT_GT(games, 0);
      EXPECT_EQ(match.at("wins").get<int>() + match.at("draws").get<int>() +
                    match.at("losses").get<int>(),
                games)
          << match.dump();
      EXPECT_LE(match.at("elo_low95").get<int>(), match.at("elo").get<int>()) << match.dump();
      EXPECT_LE(match.at("elo").get<int>(), match.at("elo_high95").get<int>()) << match.dump();
      EXPECT_TRUE(has(match.at("agent").get<std::string>(), "model=" + name)) << match.dump();
      // Claims that hold on any seed: pooled over two seeds or more, 200 games or more.
      const std::vector<uint64_t> seeds = match.at("seeds");
      EXPECT_GE(std::set<uint64_t>(seeds.begin(), seeds.end()).size(), 2u) << match.dump();
      EXPECT_EQ(match.at("commands").size(), seeds.size()) << match.dump();
      EXPECT_GE(games, 200) << match.dump();
      const json& rounds = match.at("rounds");
      EXPECT_EQ(2 * (rounds.at("won").get<int>() + rounds.at("split").get<int>() +
                     rounds.at("lost").get<int>()),
                games)
          << match.dump();
    }

    for (const std::string& played : plays) {  // a game on every scenario it plays
      const ProcessResult play = runMorne("play --scenario " + played + " --blue az:model=" + name +
                                          ",sims=8 --orange rule --seed 1");
      EXPECT_EQ(play.exit_code, 0) << played << ": " << play.output;
      EXPECT_TRUE(has(play.output, "result: ")) << played << ": " << play.output;
    }
  }
  for (const std::string& card : filesEndingWith(kModels, ".json"))
    EXPECT_TRUE(fs::exists(fs::path(card).replace_extension(".pt"))) << card << " has no network";
  unsetenv("MORNE_MODELS");
}

// scripts/model-card.py pools a match over arenas of several seeds and refuses one that rests on
// a single seed, repeats a seed, mixes pairs or counts fewer than 200 games; --add-matches adds
// a match to a card's own.
TEST(ShippedModels, TheCardScriptPoolsSeedsAndRefusesAMatchOfOneSeed) {
  const std::string dir = freshTestDir("model-card");
  const auto arena = [&](const std::string& out, int seed, int rounds) {
    const ProcessResult r = runMorne("arena --scenarios duel --agents 'random rule' --rounds " +
                                     std::to_string(rounds) + " --seed " + std::to_string(seed) +
                                     " --out " + dir + "/" + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  };
  arena("a1", 1, 50);
  arena("a2", 2, 50);
  arena("short", 3, 10);
  fs::copy_file(kModels + "/duel.json", dir + "/card.json");
  const auto card = [&](const std::string& matches) {
    return runShell("python3 " + std::string(MORNE_SOURCE_DIR) +
                    "/scripts/model-card.py --morne MORNE --net unused --matches-only " + matches +
                    " --out " + dir + "/card.json");
  };
  ProcessResult r = card("--match " + dir + "/a1");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(has(r.output, "one seed (1)")) << r.output;
  r = card("--match " + dir + "/a1 " + dir + "/a1");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(has(r.output, "the same seed")) << r.output;
  r = card("--match " + dir + "/a1 " + dir + "/short");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(has(r.output, "needs 200 or more")) << r.output;

  r = card("--match " + dir + "/a1 " + dir + "/a2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json written = json::parse(fileBytes(dir + "/card.json"));
  EXPECT_EQ(written.at("name"), "duel") << "the rest of the card is kept";
  ASSERT_EQ(written.at("strength").size(), 1u);
  const json& match = written.at("strength")[0];
  EXPECT_EQ(match.at("seeds"), json::array({1, 2}));
  EXPECT_EQ(match.at("games"), 200);
  EXPECT_EQ(match.at("agent"), "random");
  EXPECT_EQ(match.at("commands").size(), 2u);
  const json& rounds = match.at("rounds");
  EXPECT_EQ(
      rounds.at("won").get<int>() + rounds.at("split").get<int>() + rounds.at("lost").get<int>(),
      100);

  // --add-matches keeps the card's matches: a new pair comes after them, a pair measured again
  // replaces its match in place.
  fs::copy_file(kModels + "/duel.json", dir + "/card.json", fs::copy_options::overwrite_existing);
  const json shipped = json::parse(fileBytes(dir + "/card.json")).at("strength");
  const auto add = [&]() {
    return runShell("python3 " + std::string(MORNE_SOURCE_DIR) +
                    "/scripts/model-card.py --morne MORNE --net unused --add-matches --match " +
                    dir + "/a1 " + dir + "/a2 --out " + dir + "/card.json");
  };
  for (int time = 0; time < 2; ++time) {
    r = add();
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const json added = json::parse(fileBytes(dir + "/card.json")).at("strength");
    ASSERT_EQ(added.size(), shipped.size() + 1) << "time " << time;
    for (size_t i = 0; i < shipped.size(); ++i) EXPECT_EQ(added[i], shipped[i]);
    EXPECT_EQ(added.back(), match);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace morne::test
