#pragma once
// Random play from a position the fuzz targets produced, checking what the rules promise at
// every decision: a game that is not over has a legal action. ASan and UBSan watch the rest.

#include <cstdint>

#include "env/rng.h"
#include "env/rules.h"
#include "tests/fuzz/fuzz_target.h"

namespace morne::fuzz {

inline void playRandomly(env::GameState s, uint64_t seed, int plies) {
  env::Rng rng(seed);
  env::ActionList legal;
  for (int ply = 0; ply < plies && !s.isTerminal(); ++ply) {
    if (!s.isChanceNode()) {
      env::legalActions(s, legal);
      fuzzRequire(!legal.empty(), "no legal action in a game that is not over");
    }
    env::playRandomPly(s, rng, legal);
  }
}

}  // namespace morne::fuzz
