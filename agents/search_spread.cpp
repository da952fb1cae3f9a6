#include "agents/search_spread.h"

#include <algorithm>
#include <cmath>

#include "agents/agent_kinds.h"
#include "agents/game_runner.h"
#include "agents/rule_agent.h"
#include "env/rules.h"

namespace morne::agents {

std::vector<env::GameState> ruleGamePositions(const env::Scenario& sc, uint64_t seed,
                                              size_t count) {
  struct Collector : GameObserver {
    std::vector<env::GameState> all;
    env::ActionList legal;
    void onPly(const env::GameState& before, const Ply& ply, const env::GameState&,
               const env::EventLog&) override {
      if (ply.chance) return;
      env::legalActions(before, legal);
      if (legal.size() > 1) all.push_back(before);
    }
  } collector;
  RuleAgent blue, orange;
  playGame(sc, blue, orange, seed, &collector);
  std::vector<env::GameState> out;
  const size_t n = collector.all.size(), take = std::min(count, n);
  for (size_t i = 0; i < take; ++i) out.push_back(collector.all[i * n / take]);
  return out;
}

double searchValueSpread(const std::string& spec, const std::vector<env::GameState>& positions) {
  if (positions.empty()) return 0;
  const auto agent = makeAgent(spec, 1);
  double total = 0;
  for (const env::GameState& s : positions) {
    const Decision d = agent->decide(s);
    double n = 0, sum = 0, squares = 0;
    for (const mcts::RootChild& c : d.info.children) {
      if (c.visits == 0) continue;
      n += 1;
      sum += c.value;
      squares += c.value * c.value;
    }
    if (n >= 2) total += std::sqrt(std::max(0.0, squares / n - (sum / n) * (sum / n)));
  }
  return total / static_cast<double>(positions.size());
}

}  // namespace morne::agents
