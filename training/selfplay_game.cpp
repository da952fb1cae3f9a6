#include "training/selfplay_game.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "agents/agent_spec.h"
#include "agents/game_runner.h"
#include "agents/informed_decision.h"
#include "env/rules.h"
#include "training/final_targets.h"

namespace morne::training {

namespace {

// The seed stream of the archive's draws (the start position and the archived one).
constexpr uint64_t kArchiveStream = 0xA7C4'1E5D'0B3F'2291ull;
// The seed stream of the game's handicap draw (SelfPlayConfig::handicap_spread).
constexpr uint64_t kHandicapStream = 0x4A6D'1C0E'93B2'57F1ull;
// The seed stream of the value teacher (SelfPlayConfig::value_teacher).
constexpr uint64_t kTeacherStream = 0x7E4C'B3A1'0D59'62F8ull;

// The action to play: with `explore`, drawn in proportion to the agent's policy target, unless
// the agent drew its action itself (Gumbel); else the agent's choice.
env::Action playedAction(const agents::Decision& d, bool explore, env::Rng& rng) {
  if (!explore || d.info.sampled) return d.action;
  double total = 0;
  for (const mcts::RootChild& a : d.info.children) total += a.policy;
  if (!(total > 0)) return d.action;
  double pick = rng.uniform() * total;
  for (const mcts::RootChild& a : d.info.children) {
    if ((pick -= a.policy) < 0) return a.action;
  }
  return d.action;
}

}  // namespace

SelfPlayGame::SelfPlayGame(const SelfPlayConfig& c, const agents::BatchedSearch* batched, int index,
                           const RowEncoder& rows)
    : c_(c),
      rows_(rows),
      s_(env::newGame(*c.scenario)),
      dice_(env::deriveSeed(c.seed, index)),
      choice_(env::deriveSeed(c.seed, index) ^ 0x5E1F'91A7ull),
      archive_rng_(env::deriveSeed(c.seed, index) ^ kArchiveStream) {
  const uint64_t seed = env::deriveSeed(c.seed, index);
  data_.id = static_cast<uint64_t>(index);
  data_.seed = seed;
  const int boosted = boostedSide(c);
  for (int side = 0; side < env::kNumSides; ++side) {
    const uint64_t side_seed = agents::agentSeed(seed, side);
    if (batched) {
      mcts::SearchParams params = batched->search;
      if (side == boosted) params.simulations = c.boost_sims;
      search_[side].emplace(params, side_seed);
    } else {
      full_[side] = agents::makeAgent(
          oneLeafAtATime(side == boosted ? agents::withBudget(c.agent, "sims", c.boost_sims)
                                         : c.agent),
          side_seed);
      if (c.cheap_sims > 0) {
        cheap_[side] = agents::makeAgent(oneLeafAtATime(cheapSearchSpec(c.agent, c.cheap_sims)),
                                         side_seed + 1);
      }
    }
  }
  if (!c.value_teacher.empty())
    teacher_ = agents::makeAgent(c.value_teacher, seed ^ kTeacherStream);
  resign_allowed_ = c.resign_value > 0 && choice_.uniform() >= c.resign_check_fraction;
  if (c.starts && !c.starts->empty() && archive_rng_.uniform() < c.start_share) {
    s_ = (*c.starts)[archive_rng_.below(static_cast<uint32_t>(c.starts->size()))];
    from_archive_ = true;
  }
  if (const int spread = handicapSpreadHalf(c); spread > 0) {
    env::Rng draw(seed ^ kHandicapStream);
    const int offset = static_cast<int>(draw.below(static_cast<uint32_t>(2 * spread + 1))) - spread;
    env::setHandicap(s_, c.scenario->balance().signedHalf() + offset);
  }
}

const mcts::LeafRequest* SelfPlayGame::advance(const std::atomic<bool>* stop) {
  for (;;) {
    if (searching_) {
      agents::LockstepSearchAgent& agent = *search_[s_.side];
      if (const mcts::LeafRequest* leaf = agent.next()) return leaf;
      searching_ = false;
      decided(agent.decision());
      continue;
    }
    if (over_ || (stop && stop->load())) return nullptr;
    if (s_.isTerminal()) {
      finish(kEndRules, env::kNoSide);
      return nullptr;
    }
    if (c_.adjudicate_decisions > 0 && data_.decisions >= c_.adjudicate_decisions) {
      finish(kEndAdjudicated, env::kNoSide);
      return nullptr;
    }
    ++data_.plies;
    if (s_.isChanceNode()) {
      env::applyChance(s_, env::sampleChance(s_, dice_));
      continue;
    }
    if (c_.archive && archive_rng_.below(++archive_seen_) == 0)
      archived_ = s_;  // reservoir sampling: each decision equally likely
    full_search_ = c_.cheap_sims == 0 || choice_.uniform() < c_.full_search_probability;
    view_ = agents::positionToDecideFrom(s_);  // what the side to move may know (S-4)
    if (!search_[s_.side]) {
      decided((full_search_ ? full_[s_.side] : cheap_[s_.side])->decide(view_));
      continue;
    }
    // Cheap searches are not recorded: they get no exploration noise (KataGo).
    search_[s_.side]->begin(
        view_, full_search_ ? search_[s_.side]->params().simulations : c_.cheap_sims, full_search_);
    searching_ = true;
  }
}

void SelfPlayGame::provide(double value) { search_[s_.side]->complete(value); }

// Records the decision (when fully searched), watches for resignation, plays the action.
void SelfPlayGame::decided(const agents::Decision& d) {
  ++data_.decisions;
  decision_values_.push_back({static_cast<uint8_t>(s_.side),
                              d.info.simulations > 0 ? static_cast<float>(d.info.root_value)
                                                     : std::numeric_limits<float>::quiet_NaN()});
  if (full_search_) {
    rows_.append(view_, move_, d.info.children, d.action, data_);
    // The search's value of the position for the side to move; none (NaN, the result once
    // known) for an agent that does not search.
    data_.search_value.push_back(d.info.simulations > 0 ? static_cast<float>(d.info.root_value)
                                                        : std::numeric_limits<float>::quiet_NaN());
    if (teacher_) data_.teacher_value.push_back(teacherValue());
  }
  const int side = s_.side;
  if (c_.resign_value > 0 && d.info.simulations > 0) {
    low_streak_[side] = d.info.root_value < -c_.resign_value ? low_streak_[side] + 1 : 0;
    if (low_streak_[side] >= c_.resign_moves) {
      if (resign_allowed_) {
        finish(kEndResigned, side);
        return;
      }
      would_resign_[side] = true;
    }
  }
  env::applyAction(
      s_, agents::legalChoice(s_, playedAction(d, move_ < c_.temperature_moves, choice_), d));
  ++move_;
}

// The value teacher's root value of the position to decide, for the side to move, in [-1, 1];
// NaN when it did not search (one action to choose from).
float SelfPlayGame::teacherValue() {
  const agents::Decision t = teacher_->decide(view_);
  if (t.info.simulations <= 0) return std::numeric_limits<float>::quiet_NaN();
  return std::clamp(static_cast<float>(t.info.root_value), -1.0f, 1.0f);
}

void SelfPlayGame::finish(uint8_t end, int resigner) {
  over_ = true;
  const env::GameResult r = env::gameResult(s_);
  data_.end = end;
  data_.winner = static_cast<int8_t>(resigner == env::kNoSide ? r.winner : 1 - resigner);
  data_.vp_blue = static_cast<int16_t>(r.vp[0]);
  data_.vp_orange = static_cast<int16_t>(r.vp[1]);
  data_.handicap_half = static_cast<int8_t>(r.handicap_half[0] - r.handicap_half[1]);
  data_.level = static_cast<int8_t>(resigner == env::kNoSide ? r.level : 0);
  for (uint8_t side : data_.side) {
    data_.value.push_back(data_.winner == env::kNoSide ? 0.0f
                          : data_.winner == side       ? 1.0f
                                                       : -1.0f);
  }
  for (size_t row = 0; row < data_.search_value.size(); ++row) {
    float& v = data_.search_value[row];
    v = std::isnan(v) ? data_.value[row] : std::clamp(v, -1.0f, 1.0f);
  }
  fillFinalTargets(s_, decision_values_, rows_.encoder(), data_);
  for (int side = 0; side < env::kNumSides; ++side) {
    if (would_resign_[side] && data_.winner != 1 - side) false_resignation_ = true;
  }
}

}  // namespace morne::training
