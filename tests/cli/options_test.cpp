// Option parsing shared by the subcommands: config files with sections, --set overrides,
// precedence, unknown keys.

#include "cli/options.h"

#include <gtest/gtest.h>

#include "env/error.h"
#include "tests/cli/test_process.h"

namespace morne::test {
namespace {

namespace po = cli::po;

po::options_description demoOptions() {
  po::options_description own("demo");
  own.add_options()("seed", po::value<int>()->default_value(1), "seed")(
      "name", po::value<std::string>()->default_value("x"), "name")(
      "mcts.cpuct", po::value<double>()->default_value(1.0), "exploration")(
      "quiet", po::bool_switch(), "quiet");
  return own;
}

TEST(Options, PrecedenceSetOverFlagsOverFileOverDefaults) {
  const std::string cfg = writeTempFile("demo.cfg", "seed = 5\nname = file\n[mcts]\ncpuct = 2.5\n");
  const auto own = demoOptions();
  auto cmd =
      cli::parseCommand("demo", {"--config", cfg, "--name", "flag", "--set", "seed=9"}, own, 0);
  EXPECT_EQ(cmd.vm["seed"].as<int>(), 9);
  EXPECT_EQ(cmd.vm["name"].as<std::string>(), "flag");
  EXPECT_DOUBLE_EQ(cmd.vm["mcts.cpuct"].as<double>(), 2.5);
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

TEST(Options, ErrorsNameThePlace) {
  const auto own = demoOptions();
  const std::string cfg = writeTempFile("bad.cfg", "seed = 5\n[mcts]\ncpuc = 2\n");
  try {
    cli::parseCommand("demo", {"--config", cfg}, own, 0);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.cfg:3: unknown key \"mcts.cpuc\""), std::string::npos)
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
