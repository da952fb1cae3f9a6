#pragma once
// Turns a decision into a row of training data (training/record.h): the observation, the legal
// mask and the policy target, in the scenario's encodings (nn/observation.h,
// nn/policy_layout.h). One per run; encoding is const, so threads share it.

#include <span>

#include "agents/agent.h"
#include "env/scenario.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"
#include "training/record.h"

namespace morne::training {

class RowEncoder {
 public:
  explicit RowEncoder(const env::Scenario& sc);

  // Appends the row of decision number `move` at `s` to `g`. The policy target is the
  // RootChild::policy weights of `stats`, normalised; one-hot on `played` when they sum to 0
  // (agents that give no policy). The value target is added when the game ends.
  void append(const env::GameState& s, int move, std::span<const mcts::RootChild> stats,
              env::Action played, GameData& g) const;

  RowShape shape() const;
  const nn::ObservationEncoder& encoder() const { return encoder_; }
  const nn::PolicyLayout& layout() const { return layout_; }

 private:
  nn::ObservationEncoder encoder_;
  nn::PolicyLayout layout_;
};

}  // namespace morne::training
