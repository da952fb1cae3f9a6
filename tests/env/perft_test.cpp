// Perft: committed golden counts (tests/golden/perft.txt), and the fast generator checked
// against the slow reference generator at every node of small trees.

#include "env/perft.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/rules.h"
#include "tests/env/reference_rules.h"

namespace morne::test {
namespace {

const std::string kGolden = MORNE_SOURCE_DIR "/tests/golden/";

env::GameState startOf(const env::Scenario& sc, const std::string& state_file) {
  if (state_file == "-") return env::newGame(sc);
  std::ifstream in(kGolden + state_file);
  EXPECT_TRUE(in) << state_file;
  return env::stateFromJson(sc, nlohmann::json::parse(in), state_file);
}

struct GoldenLine {
  std::string scenario;
  std::string state;
  int depth = 0;
  uint64_t count = 0;
};

std::vector<GoldenLine> goldenLines() {
  std::ifstream in(kGolden + "perft.txt");
  std::vector<GoldenLine> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    GoldenLine g;
    fields >> g.scenario >> g.state >> g.depth >> g.count;
    out.push_back(g);
  }
  return out;
}

TEST(Perft, GoldenCounts) {
  const auto lines = goldenLines();
  ASSERT_GE(lines.size(), 10u);
  for (const GoldenLine& g : lines) {
    const auto sc = env::loadScenario(g.scenario);
    EXPECT_EQ(env::perft(startOf(*sc, g.state), g.depth), g.count)
        << g.scenario << " " << g.state << " depth " << g.depth;
  }
}

// Walks the whole tree to `depth`, comparing the two generators at every decision node.
void crossCheck(const env::GameState& s, int depth, int& nodes) {
  ++nodes;
  if (s.isChanceNode()) {
    env::ChanceList outcomes;
    env::chanceOutcomes(s, outcomes);
    for (const env::ChanceOutcome& o : outcomes) {
      env::GameState child = s;
      env::applyChance(child, o.value);
      if (depth > 1) crossCheck(child, depth - 1, nodes);
    }
    return;
  }
  env::ActionList legal;
  env::legalActions(s, legal);
  ASSERT_EQ(std::vector<env::Action>(legal.begin(), legal.end()), referenceLegalActions(s))
      << env::stateToJson(s).dump();
  if (depth <= 1) return;
  for (const env::Action& a : legal) {
    env::GameState child = s;
    env::applyAction(child, a);
    crossCheck(child, depth - 1, nodes);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(Perft, FastGeneratorMatchesReferenceAtEveryNode) {
  const auto duel = env::loadScenario("duel");
  int nodes = 0;
  crossCheck(env::newGame(*duel), 4, nodes);
  crossCheck(startOf(*duel, "duel_contact.json"), 4, nodes);
  const auto crossing = env::loadScenario("crossing");
  crossCheck(env::newGame(*crossing), 2, nodes);
  crossCheck(startOf(*duel, "duel_bombardment.json"), 4, nodes);
  crossCheck(startOf(*crossing, "crossing_battle.json"), 3, nodes);
  EXPECT_GT(nodes, 10000);
}

}  // namespace
}  // namespace morne::test
