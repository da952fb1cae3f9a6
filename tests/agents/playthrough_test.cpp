// Golden playthroughs: one seeded game per scenario, rendered as text (actions, dice, results),
// compared with the committed transcript. A rule change that alters play shows up as a diff to
// review; scripts/regenerate-golden.sh rewrites the files when the change is intended.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "agents/agent_kinds.h"
#include "agents/game_log.h"
#include "env/io/scenario_library.h"

namespace morne::test {
namespace {

std::string transcript(const std::string& scenario, uint64_t seed) {
  const auto sc = env::loadScenario(scenario);
  auto blue = agents::makeAgent("random", agents::agentSeed(seed, 0));
  auto orange = agents::makeAgent("random", agents::agentSeed(seed, 1));
  std::ostringstream out;
  agents::TextGameLog log(out, false);
  const agents::GameSummary g = agents::playGame(*sc, *blue, *orange, seed, &log);
  out << "\nresult: " << agents::resultText(*sc, g.result) << "\n";
  return out.str();
}

void expectGolden(const std::string& scenario, uint64_t seed) {
  const std::string path =
      std::string(MORNE_SOURCE_DIR) + "/tests/golden/playthrough_" + scenario + ".txt";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream expected;
  expected << in.rdbuf();
  std::istringstream want(expected.str());
  std::istringstream got(transcript(scenario, seed));
  std::string a;
  std::string b;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(want, a));
    const bool more_b = static_cast<bool>(std::getline(got, b));
    if (!more_a && !more_b) return;
    ASSERT_EQ(b, a) << path << " line " << line
                    << " differs (run scripts/regenerate-golden.sh if the change is intended)";
  }
}

TEST(Playthrough, Duel) { expectGolden("duel", 8); }
TEST(Playthrough, Crossing) { expectGolden("crossing", 10); }
TEST(Playthrough, Pyramids) { expectGolden("pyramids", 13); }

}  // namespace
}  // namespace morne::test
