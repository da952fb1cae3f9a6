#pragma once
// Small tactical positions the search tests share, and their fake evaluator.

#include <memory>
#include <span>

#include "env/game_state.h"
#include "mcts/evaluator.h"
#include "tests/env/test_map.h"

namespace morne::test {

// A position and the scenario it lives in.
struct Position {
  std::shared_ptr<const env::Scenario> scenario;
  env::GameState state;
};

// The last combat phase of the game (orange's): orange's A (VC 8) touches blue's D (VC 1) on
// blue's objective and F (VC 1) in the open. Attacking D eliminates it whatever the die (4:1
// with F's support, every result costs the defender a point): blue loses its VP. Attacking F
// or ending leaves blue the winner.
inline Position forcedElimination() {
  TestMap m;
  m.turns(1)
      .unit({.id = "A", .side = 1, .at = {0, 0}, .vc = 8})
      .unit({.id = "D", .side = 0, .at = {1, 0}, .vc = 1})
      .unit({.id = "F", .side = 0, .at = {-1, 0}, .vc = 1})
      .objective({1, 0}, false, 1, 0);
  Position p;
  p.scenario = m.build();
  p.state = stateIn(*p.scenario, env::Phase::kCombat, 1);
  return p;
}

// Uniform priors; the value is a fixed function of the hash, so that different leaves differ.
class HashEvaluator : public mcts::Evaluator {
 public:
  double evaluate(const env::GameState& s, std::span<const env::Action>,
                  std::span<float> priors) override {
    for (float& p : priors) p = 1.0f / static_cast<float>(priors.size());
    return static_cast<double>(s.hash % 2001) / 1000.0 - 1.0;
  }
};

// Two units a side in the open, blue to move in the first movement phase of three turns: a
// search with many distinct leaves. The scenario goes to `keep`.
inline env::GameState skirmishStart(std::shared_ptr<const env::Scenario>& keep) {
  TestMap m;
  m.turns(3)
      .unit({.id = "A", .side = 0, .at = {0, 0}, .vc = 3})
      .unit({.id = "B", .side = 0, .at = {0, 1}, .vc = 2})
      .unit({.id = "C", .side = 1, .at = {2, 0}, .vc = 3})
      .unit({.id = "D", .side = 1, .at = {2, -1}, .vc = 2});
  keep = m.build();
  return stateIn(*keep, env::Phase::kMovement, 0);
}

}  // namespace morne::test
