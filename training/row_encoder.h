#pragma once
// Turns a decision into a row of training data (training/record.h): the observation, the legal
// mask and the policy target, in the scenario's encodings (agents/observation.h,
// agents/policy_layout.h). One per run; encoding is const, so threads share it.

#include <span>

#include "agents/agent.h"
#include "agents/observation.h"
#include "agents/policy_layout.h"
#include "env/scenario.h"
#include "training/record.h"

namespace morne::training {

class RowEncoder {
 public:
  explicit RowEncoder(const env::Scenario& sc);

  // Appends the row of decision number `move` at `s` to `g`. The policy target is the
  // ActionStat::policy weights of `stats`, normalised; one-hot on `played` when they sum to 0
  // (agents that give no policy). The value target is added when the game ends.
  void append(const env::GameState& s, int move, std::span<const agents::ActionStat> stats,
              env::Action played, GameData& g) const;

  RowShape shape() const;
  const agents::ObservationEncoder& encoder() const { return encoder_; }
  const agents::PolicyLayout& layout() const { return layout_; }

 private:
  agents::ObservationEncoder encoder_;
  agents::PolicyLayout layout_;
};

}  // namespace morne::training
