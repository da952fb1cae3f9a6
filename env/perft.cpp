#include "env/perft.h"

#include "env/rules.h"

namespace morne::env {

namespace {

// One ply from a position: an action, or (when action is null) the chance outcome `outcome`.
struct Ply {
  const Action* action;
  int outcome;
};

// Calls fn(child, ply) for every ply of s: each chance outcome, or each legal action.
template <typename Fn>
void forEachChild(const GameState& s, Fn fn) {
  if (s.isChanceNode()) {
    ChanceList outcomes;
    chanceOutcomes(s, outcomes);
    for (const ChanceOutcome& o : outcomes) {
      GameState child = s;
      applyChance(child, o.value);
      fn(child, Ply{nullptr, o.value});
    }
    return;
  }
  ActionList legal;
  legalActions(s, legal);
  for (const Action& a : legal) {
    GameState child = s;
    applyAction(child, a);
    fn(child, Ply{&a, 0});
  }
}

}  // namespace

uint64_t perft(const GameState& s, int depth) {
  if (depth == 0) return 1;
  if (depth == 1 && !s.isChanceNode()) {  // bulk count at the leaves
    ActionList legal;
    legalActions(s, legal);
    return legal.size();
  }
  uint64_t total = 0;
  forEachChild(s, [&](const GameState& child, Ply) { total += perft(child, depth - 1); });
  return total;
}

std::vector<PerftBranch> perftDivide(const GameState& s, int depth) {
  std::vector<PerftBranch> out;
  if (depth <= 0) return out;
  forEachChild(s, [&](const GameState& child, Ply ply) {
    const std::optional<Action> action =
        ply.action ? std::optional<Action>(*ply.action) : std::nullopt;
    out.push_back({action, ply.outcome, perft(child, depth - 1)});
  });
  return out;
}

}  // namespace morne::env
