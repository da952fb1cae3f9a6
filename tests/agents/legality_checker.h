#pragma once
// A game observer for tests: every action an agent plays must be legal where it is played.

#include <gtest/gtest.h>

#include "agents/game_runner.h"
#include "env/rules.h"

namespace morne::test {

class LegalityChecker : public agents::GameObserver {
 public:
  void onPly(const env::GameState& before, const agents::Ply& ply, const env::GameState&,
             const env::EventLog&) override {
    if (!ply.chance) {
      EXPECT_TRUE(env::isLegal(before, ply.action));
    }
    ++plies;
  }
  int plies = 0;
};

}  // namespace morne::test
