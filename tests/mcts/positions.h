#pragma once
// Small tactical positions the search tests share.

#include <memory>

#include "env/game_state.h"
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

}  // namespace morne::test
