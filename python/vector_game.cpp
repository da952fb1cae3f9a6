#include "python/vector_game.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "env/action.h"
#include "env/rules.h"
#include "mcts/workers.h"

namespace morne::python {

namespace {

bool isOutcome(const env::GameState& s, int value) {
  env::ChanceList outcomes;
  env::chanceOutcomes(s, outcomes);
  return std::any_of(outcomes.begin(), outcomes.end(),
                     [&](const env::ChanceOutcome& o) { return o.value == value; });
}

}  // namespace

VectorGame::VectorGame(const env::Scenario& scenario, int n, uint64_t seed, bool auto_chance,
                       int threads)
    : scenario_(&scenario),
      encoder_(scenario),
      shape_(encoder_.shape()),
      num_actions_(env::actionSpaceSize(scenario)),
      seed_(seed),
      auto_chance_(auto_chance),
      threads_(std::max(1, threads)) {
  if (n < 1) throw std::invalid_argument("VectorGame: n must be at least 1");
  const auto slots = static_cast<size_t>(n);
  states_.resize(slots);
  dice_.assign(slots, env::Rng(0));
  episodes_.assign(slots, 0);
  planes_.resize(slots * static_cast<size_t>(shape_.planeSize()));
  globals_.resize(slots * static_cast<size_t>(shape_.globals));
  masks_.resize(slots * static_cast<size_t>(num_actions_));
  players_.resize(slots);
  rewards_.resize(slots * 2);
  dones_.resize(slots);
  reset();
}

void VectorGame::reset() {
  for (int i = 0; i < size(); ++i) {
    const auto slot = static_cast<size_t>(i);
    states_[slot] = env::newGame(*scenario_);
    dice_[slot] = env::Rng(env::deriveSeed(seed_, i));
    episodes_[slot] = 0;
  }
  std::fill(rewards_.begin(), rewards_.end(), 0.0f);
  std::fill(dones_.begin(), dones_.end(), uint8_t{0});
  mcts::forEachInParallel(threads_, size(), [this](int i) { settle(i); });
}

void VectorGame::step(std::span<const int32_t> actions) {
  if (actions.size() != states_.size()) {
    throw std::invalid_argument("VectorGame.step: " + std::to_string(actions.size()) +
                                " actions for " + std::to_string(size()) + " games");
  }
  for (int i = 0; i < size(); ++i) {
    const auto slot = static_cast<size_t>(i);
    const int32_t a = actions[slot];
    const env::GameState& s = states_[slot];
    const bool ok =
        s.isChanceNode()
            ? isOutcome(s, a)
            : a >= 0 && a < num_actions_ &&
                  masks_[slot * static_cast<size_t>(num_actions_) + static_cast<size_t>(a)] != 0;
    if (!ok) {
      throw std::invalid_argument(
          "VectorGame.step: game " + std::to_string(i) + ": " +
          (s.isChanceNode() ? "outcome " + std::to_string(a) + " is not one of the pending " +
                                  std::string(env::chanceKindName(s.pending.kind)) + "'s"
                            : "action " + std::to_string(a) + " is not legal (see masks)"));
    }
  }
  mcts::forEachInParallel(threads_, size(), [this, actions](int i) {
    const auto slot = static_cast<size_t>(i);
    env::GameState& s = states_[slot];
    if (s.isChanceNode()) {
      env::applyChance(s, actions[slot]);
    } else {
      env::applyAction(s, *env::actionFromIndex(*scenario_, actions[slot]));
    }
    rewards_[2 * slot] = rewards_[2 * slot + 1] = 0.0f;
    dones_[slot] = 0;
    settle(i);
  });
}

void VectorGame::settle(int i) {
  const auto slot = static_cast<size_t>(i);
  env::GameState& s = states_[slot];
  while (auto_chance_ && s.isChanceNode()) env::applyChance(s, env::sampleChance(s, dice_[slot]));
  if (s.isTerminal()) {
    const env::GameResult r = env::gameResult(s);
    const float blue = r.winner == env::kNoSide ? 0.0f : r.winner == 0 ? 1.0f : -1.0f;
    rewards_[2 * slot] = blue;
    rewards_[2 * slot + 1] = -blue;
    dones_[slot] = 1;
    ++episodes_[slot];
    s = env::newGame(*scenario_);
    while (auto_chance_ && s.isChanceNode()) {
      env::applyChance(s, env::sampleChance(s, dice_[slot]));
    }
  }
  writeRows(i);
}

void VectorGame::writeRows(int i) {
  const auto slot = static_cast<size_t>(i);
  const env::GameState& s = states_[slot];
  const auto plane_size = static_cast<size_t>(shape_.planeSize());
  const auto global_size = static_cast<size_t>(shape_.globals);
  encoder_.encode(s, std::span<float>(planes_).subspan(slot * plane_size, plane_size),
                  std::span<float>(globals_).subspan(slot * global_size, global_size));
  players_[slot] = static_cast<int8_t>(s.isChanceNode() ? -1 : s.side);
  uint8_t* mask = masks_.data() + slot * static_cast<size_t>(num_actions_);
  std::fill(mask, mask + num_actions_, uint8_t{0});
  if (s.isChanceNode()) return;
  env::ActionList legal;
  env::legalActions(s, legal);
  for (const env::Action& a : legal) mask[env::actionIndex(*scenario_, a)] = 1;
}

}  // namespace morne::python
