// reachableHexes (the protocol's "reachable") agrees with what sequences of legal steps of the
// same unit actually reach, at the same cheapest cost.

#include "env/reachable.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/rules.h"

namespace morne::test {
namespace {

// Cheapest cost to each cell by exhaustive search over real states, stepping only unit u and
// passing every marsh test. A state is pruned only when the same hex was reached with the
// same road flag (MV-ROAD-2) at no greater cost.
std::map<env::CellId, int> bruteForce(const env::GameState& start, int u) {
  std::map<env::CellId, int> best;
  std::map<std::pair<env::CellId, bool>, int> seen;
  std::vector<env::GameState> frontier = {start};
  const int mp0 = start.unit(u).mp;
  while (!frontier.empty()) {
    env::GameState s = frontier.back();
    frontier.pop_back();
    env::ActionList legal;
    env::legalActions(s, legal);
    for (const env::Action& a : legal) {
      if (a.kind != env::ActionKind::kMove || a.cell != s.unit(u).cell) continue;
      env::GameState next = s;
      env::applyAction(next, a);
      while (next.isChanceNode()) env::applyChance(next, 4);  // the best d4: not stuck
      if (next.side != start.side || next.phase != start.phase) continue;
      const env::CellId c = next.unit(u).cell;
      const int cost = mp0 - next.unit(u).mp;
      const auto key = std::make_pair(c, next.has(u, env::unit_flag::kRoadFree));
      if (auto it = seen.find(key); it != seen.end() && it->second <= cost) continue;
      seen[key] = cost;
      if (auto it = best.find(c); it == best.end() || cost < it->second) best[c] = cost;
      frontier.push_back(next);
    }
  }
  best.erase(start.unit(u).cell);
  return best;
}

void checkAllUnits(const env::GameState& s) {
  int checked = 0;
  for (int u = 0; u < s.num_units; ++u) {
    if (s.sideOf(u) != s.side || !s.onMap(u)) continue;
    std::map<env::CellId, int> fast;
    for (const env::ReachableHex& r : env::reachableHexes(s, u)) {
      fast[r.cell] = r.cost;
      ASSERT_FALSE(r.path.empty());
      EXPECT_EQ(r.path.back(), r.cell);
    }
    EXPECT_EQ(fast, bruteForce(s, u)) << s.sc().unit(u).id;
    checked += !fast.empty();
  }
  EXPECT_GT(checked, 0);
}

TEST(Reachable, MatchesLegalStepSequences) {
  const auto duel = env::loadScenario("duel");
  checkAllUnits(env::newGame(*duel));
  std::ifstream in(MORNE_SOURCE_DIR "/tests/golden/duel_contact.json");
  checkAllUnits(env::stateFromJson(*duel, nlohmann::json::parse(in), "duel_contact"));
  const auto crossing = env::loadScenario("crossing");
  checkAllUnits(env::newGame(*crossing));
}

}  // namespace
}  // namespace morne::test
