#pragma once
// One self-play game as a state machine, so that one thread can advance many games side by side
// and evaluate their searches' leaves in one batch (lc0's lock-step; training/selfplay.cpp).
// advance() plays on until the game is over or a lock-step search needs a leaf evaluated;
// provide() hands the value back. Agents without a lock-step form (rule, mcts) decide on their
// own inside advance(), so the same loop serves every agent spec.
//
// The game records what training needs (training/record.h): every fully searched decision,
// with the agent's policy target; the final result as value target, and the auxiliary targets
// (training/final_targets.h). It also applies the
// self-play options: exploration by the policy target for the first moves, playout cap
// randomisation, resignation (with a share of games that never resign, to measure how often a
// resignation would have been wrong) and adjudication after a number of decisions.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_kinds.h"
#include "agents/lockstep_agent.h"
#include "env/rng.h"
#include "training/record.h"
#include "training/row_encoder.h"
#include "training/selfplay_config.h"

namespace morne::training {

class SelfPlayGame {
 public:
  // Game number `index` of the run `c`; `batched` is the agent's lock-step form, or null.
  // `rows` belongs to the run's scenario and outlives the game.
  SelfPlayGame(const SelfPlayConfig& c, const agents::BatchedSearch* batched, int index,
               const RowEncoder& rows);

  // Plays until the game is over or `stop` is set (returns null) or a lock-step search needs a
  // leaf evaluated (returns it, valid until provide()).
  const mcts::LeafRequest* advance(const std::atomic<bool>* stop);

  // The value of the leaf advance() returned, blue's point of view.
  void provide(double value);

  bool over() const { return over_; }
  // The recorded game; complete once over().
  GameData& data() { return data_; }
  // Games with resignation disabled: whether a side would have resigned and did not lose.
  bool falseResignation() const { return false_resignation_; }
  bool wouldHaveResigned() const { return would_resign_[0] || would_resign_[1]; }
  // Whether the game began at an archived position (SelfPlayConfig::starts).
  bool fromArchive() const { return from_archive_; }
  // With SelfPlayConfig::archive, the position drawn uniformly from the game's decisions so far.
  const std::optional<env::GameState>& archived() const { return archived_; }

 private:
  void decided(const agents::Decision& d);
  void finish(uint8_t end, int resigner);
  float teacherValue();

  const SelfPlayConfig& c_;
  const RowEncoder& rows_;
  env::GameState s_;
  env::GameState view_;  // the position the side to move decides from (agents/informed_decision.h)
  env::Rng dice_;
  env::Rng choice_;
  env::Rng archive_rng_;  // the archive's draws, apart from the game's others
  std::unique_ptr<agents::Agent> full_[2], cheap_[2];     // agents that decide on their own
  std::unique_ptr<agents::Agent> teacher_;                // the value teacher, if any
  std::optional<agents::LockstepSearchAgent> search_[2];  // lock-step searches
  bool searching_ = false;
  bool full_search_ = true;
  bool resign_allowed_ = true;
  int low_streak_[2] = {0, 0};
  bool would_resign_[2] = {false, false};
  bool false_resignation_ = false;
  bool over_ = false;
  int move_ = 0;
  bool from_archive_ = false;
  uint32_t archive_seen_ = 0;  // decisions the archived position was drawn among
  std::optional<env::GameState> archived_;
  std::vector<DecisionValue> decision_values_;  // of every decision, for the short-term values
  GameData data_;
};

}  // namespace morne::training
