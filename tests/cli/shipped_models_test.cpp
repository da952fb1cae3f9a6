// The trained networks shipped in models/: each matches its model card (size, CRC-32, scenario,
// the scenarios it plays, encoder version, shape, weights checksum, as `morne nn info` reads
// them), its measured matches add up, and it plays a whole game by its name on every scenario
// it plays, as a user's agent spec names it.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
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

}  // namespace
}  // namespace morne::test
