#include "env/perft.h"

#include "env/notation.h"
#include "env/rules.h"

namespace morne::env {

uint64_t perft(const GameState& s, int depth) {
  if (depth == 0) return 1;
  uint64_t total = 0;
  if (s.isChanceNode()) {
    ChanceList outcomes;
    chanceOutcomes(s, outcomes);
    for (const ChanceOutcome& o : outcomes) {
      GameState child = s;
      applyChance(child, o.value);
      total += perft(child, depth - 1);
    }
    return total;
  }
  ActionList legal;
  legalActions(s, legal);
  if (depth == 1) return legal.size();
  for (const Action& a : legal) {
    GameState child = s;
    applyAction(child, a);
    total += perft(child, depth - 1);
  }
  return total;
}

std::vector<PerftBranch> perftDivide(const GameState& s, int depth) {
  std::vector<PerftBranch> out;
  if (depth <= 0) return out;
  if (s.isChanceNode()) {
    ChanceList outcomes;
    chanceOutcomes(s, outcomes);
    for (const ChanceOutcome& o : outcomes) {
      GameState child = s;
      applyChance(child, o.value);
      out.push_back({"outcome " + std::to_string(o.value), perft(child, depth - 1)});
    }
    return out;
  }
  ActionList legal;
  legalActions(s, legal);
  for (const Action& a : legal) {
    GameState child = s;
    applyAction(child, a);
    out.push_back({actionText(s, a), perft(child, depth - 1)});
  }
  return out;
}

}  // namespace morne::env
