// Option parsing shared by the subcommands: config files, --set overrides,
// precedence, unknown keys.

#include "cli/options.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "cli/option_table.h"
#include "env/error.h"
#include "tests/cli/test_process.h"

namespace morne::test {
namespace {

namespace po = cli::po;

po::options_description demoOptions() {
  po::options_description own("demo");
  own.add_options()("seed", po::value<int>()->default_value(1), "seed")(
      "name", po::value<std::string>()->default_value("x"), "name")("quiet", po::bool_switch(),
                                                                    "quiet");
  return own;
}

// A config struct declared through an option table (cli/option_table.h).
struct DemoConfig {
  int games = 8;
  double share = 0.25;
  bool fast = true;
  uint64_t seed = 1;
  std::string out = "here";
  std::string kind = "fast";  // one of fast, slow
  double added_later = 2;     // an option younger than the record's format
};

const env::OptionRow<DemoConfig> kDemoRows[] = {
    {"games", &DemoConfig::games, env::atLeast(1), "games"},
    {"share", &DemoConfig::share, {0, 1, true, false}, "share"},
    {"fast", &DemoConfig::fast, env::anyValue(), "fast"},
    {"seed", &DemoConfig::seed, env::anyValue(), "seed"},
    {"out-dir", &DemoConfig::out, env::anyValue(), "folder", false},
    {"kind", &DemoConfig::kind, env::oneOf("fast|slow"), "kind"},
    {"added-later", &DemoConfig::added_later, env::atLeast(0), "added later", env::kRecorded,
     env::before("0.5")},
};

DemoConfig readDemo(const std::vector<std::string>& args) {
  po::options_description own("demo");
  cli::addOptions<DemoConfig>(own, kDemoRows, DemoConfig{});
  const auto cmd = cli::parseCommand("demo", args, own, 0);
  DemoConfig c;
  cli::readOptions<DemoConfig>("demo", cmd.vm, kDemoRows, c);
  return c;
}

TEST(OptionTable, DefaultsRangesAndTheRecordComeFromTheRows) {
  const DemoConfig d = readDemo({});
  EXPECT_EQ(d.games, 8);
  EXPECT_EQ(d.out, "here");
  const DemoConfig c = readDemo({"--games", "3", "--share", "1", "--fast", "0", "--seed",
                                 "18446744073709551615", "--out-dir", "there"});
  EXPECT_EQ(c.games, 3);
  EXPECT_EQ(c.share, 1.0);
  EXPECT_FALSE(c.fast);
  EXPECT_EQ(c.seed, 18446744073709551615ull);
  EXPECT_EQ(c.out, "there");
  try {
    readDemo({"--share", "0"});
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "demo: --share must be in (0, 1] (got 0)");
  }
  EXPECT_THROW(readDemo({"--games", "0"}), ConfigError);
  EXPECT_EQ(readDemo({"--kind", "slow"}).kind, "slow");
  try {
    readDemo({"--kind", "fast|slow"});
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "demo: --kind must be one of fast, slow (got \"fast|slow\")");
  }
  EXPECT_EQ(env::optionsJson<DemoConfig>(kDemoRows, c).dump(),
            R"({"added_later":2.0,"fast":false,"games":3,"kind":"fast",)"
            R"("seed":18446744073709551615,"share":1.0})");
}

TEST(OptionTable, TheRecordReadsBackWithTheSameChecks) {
  const DemoConfig c = readDemo({"--games", "3", "--share", "0.5", "--seed", "77"});
  const nlohmann::json record = env::optionsJson<DemoConfig>(kDemoRows, c);
  DemoConfig back;
  env::readOptionsJson<DemoConfig>("run.json", record, kDemoRows, back);
  EXPECT_EQ(back.games, 3);
  EXPECT_EQ(back.share, 0.5);
  EXPECT_EQ(back.seed, 77u);
  EXPECT_EQ(back.out, "here");  // not recorded: left alone
  auto refused = [&](nlohmann::json edited) {
    try {
      env::readOptionsJson<DemoConfig>("run.json", edited, kDemoRows, back);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  nlohmann::json missing = record;
  missing.erase("games");
  EXPECT_EQ(refused(missing), "run.json: no \"games\"");
  nlohmann::json wrong = record;
  wrong["fast"] = "yes";
  EXPECT_EQ(refused(wrong), "run.json: \"fast\" has the wrong type");
  nlohmann::json out_of_range = record;
  out_of_range["share"] = 2;
  EXPECT_EQ(refused(out_of_range), "run.json: \"share\" must be in (0, 1] (got 2)");
  nlohmann::json other_kind = record;
  other_kind["kind"] = "medium";
  EXPECT_EQ(refused(other_kind), "run.json: \"kind\" must be one of fast, slow (got \"medium\")");
  // A record made before "added_later" existed reads as its `before` value; one made after
  // keeps its own, which the range still checks.
  nlohmann::json older = record;
  older.erase("added_later");
  EXPECT_EQ(refused(older), "accepted");
  EXPECT_EQ(back.added_later, 0.5);
  nlohmann::json newer = record;
  newer["added_later"] = 3;
  EXPECT_EQ(refused(newer), "accepted");
  EXPECT_EQ(back.added_later, 3.0);
  newer["added_later"] = -1;
  EXPECT_EQ(refused(newer), "run.json: \"added_later\" must be at least 0 (got -1)");
}

TEST(Options, PrecedenceSetOverFlagsOverFileOverDefaults) {
  const std::string cfg = writeTempFile("demo.cfg", "seed = 5\nname = file\n");
  const auto own = demoOptions();
  auto cmd =
      cli::parseCommand("demo", {"--config", cfg, "--name", "flag", "--set", "seed=9"}, own, 0);
  EXPECT_EQ(cmd.vm["seed"].as<int>(), 9);
  EXPECT_EQ(cmd.vm["name"].as<std::string>(), "flag");
  EXPECT_FALSE(cmd.vm["quiet"].as<bool>());
  cmd = cli::parseCommand("demo", {"--quiet"}, own, 0);
  EXPECT_TRUE(cmd.vm["quiet"].as<bool>());
  EXPECT_EQ(cmd.vm["seed"].as<int>(), 1);
}

TEST(Options, ARepeatableFlagAccumulates) {
  po::options_description own("demo");
  own.add_options()("scenario",
                    po::value<std::vector<std::string>>()->default_value({}, "all")->composing(),
                    "s");
  const auto cmd =
      cli::parseCommand("demo", {"--scenario", "duel", "--scenario", "crossing"}, own, 0);
  EXPECT_EQ(cmd.vm["scenario"].as<std::vector<std::string>>(),
            (std::vector<std::string>{"duel", "crossing"}));
}

std::string parseError(const std::vector<std::string>& args, const po::options_description& own) {
  try {
    cli::parseCommand("demo", args, own, 0);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Regressions: each of these was accepted (the first value of a repeated key won, -1 wrapped
// to 2^64 - 1, a folder given as config file was ignored, `--set =3` set nothing).
TEST(Options, RefusesWhatWasSilentlyAccepted) {
  po::options_description own("demo");
  own.add_options()("seed", po::value<uint64_t>()->default_value(1), "seed")(
      "name", po::value<std::string>()->default_value("x"), "name");
  const std::string twice = writeTempFile("twice.cfg", "seed = 3\nname = a\nseed = 4\n");
  EXPECT_NE(parseError({"--config", twice}, own).find("twice.cfg:3: seed is already set at"),
            std::string::npos)
      << parseError({"--config", twice}, own);
  EXPECT_NE(parseError({"--seed", "-1"}, own).find("a non-negative integer is required"),
            std::string::npos)
      << parseError({"--seed", "-1"}, own);
  EXPECT_NE(parseError({"--set", "seed=-1"}, own).find("non-negative"), std::string::npos);
  const std::string negative = writeTempFile("negative.cfg", "seed = -2\n");
  EXPECT_NE(parseError({"--config", negative}, own).find("negative.cfg:1: seed"),
            std::string::npos);
  const std::string folder = std::filesystem::path(twice).parent_path().string();
  EXPECT_NE(parseError({"--config", folder}, own).find("it is a folder"), std::string::npos)
      << parseError({"--config", folder}, own);
  EXPECT_NE(parseError({"--set", "=3"}, own).find("missing key"), std::string::npos);
  EXPECT_EQ(parseError({"--seed", "18446744073709551615"}, own), "");
  // A value holding one of Boost's message placeholders made the parser loop forever.
  EXPECT_NE(parseError({"--seed", "%value%"}, own).find("\"%value%\" is not allowed"),
            std::string::npos);
  EXPECT_NE(parseError({"--set", "seed=%original_token%x"}, own).find("is not allowed"),
            std::string::npos);
  const std::string placeholder = writeTempFile("placeholder.cfg", "seed = 1%value%\n");
  EXPECT_NE(parseError({"--config", placeholder}, own).find("placeholder.cfg:1"),
            std::string::npos);
  EXPECT_EQ(parseError({"--name", "50% off, 100%"}, own), "") << "a lone % is fine";
}

// `--resume` goes on with the run's own settings: one rule for `morne train` and `morne loop`.
TEST(Options, ResumeTakesOnlyTheSettingsThatMayChange) {
  po::options_description own("demo");
  own.add_options()("resume", po::value<std::string>(), "run")(
      "steps", po::value<int>()->default_value(5), "steps")(
      "threads", po::value<int>()->default_value(1), "threads")(
      "lr", po::value<double>()->default_value(0.1), "lr")("quiet", po::bool_switch(), "quiet");
  const auto ok = cli::parseCommand("demo", {"--resume", "run", "--steps", "9", "--quiet"}, own, 0);
  EXPECT_NO_THROW(cli::refuseSettingsOnResume("train", ok.vm, "train.json", {"steps", "threads"}));
  const auto bad = cli::parseCommand("demo", {"--resume", "run", "--lr", "0.2"}, own, 0);
  try {
    cli::refuseSettingsOnResume("train", bad.vm, "train.json", {"steps", "threads"});
    ADD_FAILURE() << "--lr was taken on --resume";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "train: --resume goes on with the run's own settings (run/train.json); only "
                 "--steps and --threads may be given, not --lr");
  }
  try {
    cli::refuseSettingsOnResume("loop", ok.vm, "loop.json", {"generations"});
    ADD_FAILURE() << "--steps was taken on a loop's --resume";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "loop: --resume goes on with the run's own settings (run/loop.json); only "
                 "--generations may be given, not --steps");
  }
}

TEST(Options, ErrorsNameThePlace) {
  const auto own = demoOptions();
  const std::string cfg = writeTempFile("bad.cfg", "seed = 5\n\ncpuc = 2\n");
  try {
    cli::parseCommand("demo", {"--config", cfg}, own, 0);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.cfg:3: unknown key \"cpuc\""), std::string::npos)
        << e.what();
  }
  // The [mcts] section once promised by the docs: refused, with the reason.
  const std::string section = writeTempFile("section.cfg", "seed = 5\n[mcts]\ncpuct = 1.5\n");
  try {
    cli::parseCommand("demo", {"--config", section}, own, 0);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(
        std::string(e.what()).find("section.cfg:2: \"[mcts]\": config files have no sections"),
        std::string::npos)
        << e.what();
  }
  const std::string malformed = writeTempFile("malformed.cfg", "seed 5\n");
  EXPECT_THROW(cli::parseCommand("demo", {"--config", malformed}, own, 0), ConfigError);
  EXPECT_THROW(cli::parseCommand("demo", {"--set", "seed"}, own, 0), ConfigError);
  EXPECT_THROW(cli::parseCommand("demo", {"--seed", "1", "--seed", "2"}, own, 0), ConfigError);
  EXPECT_THROW(cli::parseCommand("demo", {"--colour", "red"}, own, 0), ConfigError);
  EXPECT_THROW(cli::parseCommand("demo", {"extra"}, own, 0), ConfigError);
  EXPECT_THROW(cli::parseCommand("demo", {"--config", "/nonexistent/x.cfg"}, own, 0), IoError);
}

}  // namespace
}  // namespace morne::test
