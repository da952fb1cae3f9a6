#pragma once
// The settings of a self-play run (training/selfplay.h): scenario, agent, games, threads,
// shards, exploration, playout caps, resignation, adjudication and archive starts.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "env/scenario.h"

namespace morne::training {

// The largest SelfPlayConfig::handicap_spread, in VP.
inline constexpr double kMaxHandicapSpread = 10;

struct SelfPlayConfig {
  std::shared_ptr<const env::Scenario> scenario;
  std::string agent = "mcts:sims=100";  // plays both sides
  int games = 8;
  int jobs = 1;               // worker threads
  int games_per_thread = 16;  // lock-step games of one worker (agents with a lock-step form)
  // Agents with a lock-step form ("az") play in lock-step; false: one game at a time, as any
  // agent does (the same data, slower; for comparisons).
  bool lockstep = true;
  // Every network batch exactly `network_batch` positions (the leaves split into such batches,
  // the last padded), so that the data do not depend on --jobs (nn/network_evaluator.h); off:
  // faster, the same data only for the same --jobs. 0: games_per_thread. Small batches pad
  // least: on crossing 4 gave 23.5 recorded positions/s, 8 21.7, 16 15.0, unpadded 26.7
  // (docs/training.md, "Where self-play's time goes on a large map").
  bool batch_invariant = true;
  int network_batch = 4;
  size_t cache_entries = 1 << 16;  // evaluation cache of one worker (0: none)
  uint64_t seed = 1;
  std::string out_dir = "selfplay";
  std::string prefix;  // shard names: PREFIX-NNNN.h5
  int rows_per_shard = 4096;
  // Exploration: the first `temperature_moves` decisions of a game are drawn in proportion to
  // the agent's policy target (the search's visits); later ones play the agent's choice.
  int temperature_moves = 20;
  // Playout cap randomisation (KataGo): with `cheap_sims` > 0, a decision gets the full
  // budget with probability `full_search_probability` (and is recorded), else `cheap_sims`
  // simulations (and is not recorded).
  int cheap_sims = 0;
  double full_search_probability = 0.25;
  // Resignation: with `resign_value` > 0, a side whose search values its position below
  // -resign_value for `resign_moves` decisions in a row resigns, except in a share
  // `resign_check_fraction` of the games, which play on to measure false resignations.
  double resign_value = 0;
  int resign_moves = 3;
  double resign_check_fraction = 0.1;
  // Adjudication: with `adjudicate_decisions` > 0, a game is stopped after that many decisions
  // and scored as it stands (victory points).
  int adjudicate_decisions = 0;
  // The position archive (training/position_archive.h): with `archive`, one position of each
  // game, drawn uniformly from its decisions, is written to OUT_DIR/PREFIX.positions.json; a
  // share `start_share` of the games starts from a position of `starts` (drawn by the game's
  // seed; states of `scenario`) instead of the scenario's start.
  bool archive = false;
  // Balancing a one-sided scenario: with `boost_sims` > 0, the side `boost_side` ("blue" or
  // "orange") searches its full decisions with that many simulations instead of the agent's
  // (the weaker side, so that the results say more than who had the better start).
  std::string boost_side;
  int boost_sims = 0;
  // Distillation (expert iteration): with a spec, at each recorded position a search of that
  // agent (e.g. "mcts:sims=64", rule rollouts) is run as well, and its root value for the side
  // to move is recorded as the row's teacher_value; it plays nothing.
  std::string value_teacher;
  double start_share = 0;
  std::shared_ptr<const std::vector<env::GameState>> starts;
  // Handicap randomisation (KataGo's komi): with `handicap_spread` > 0 (VP, whole or half),
  // each game plays with the scenario's handicap moved by a whole number of half points drawn
  // uniformly from -spread to +spread by the game's seed; the network sees it (handicap_mine,
  // nn/observation.h) and the shards record it (games/handicap_half).
  double handicap_spread = 0;
  int queue_games = 32;     // finished games waiting for the writer, at most
  std::string config_json;  // the run's settings, stored in every shard
  std::string engine;       // version line, stored in every shard
};

// The spec of playout cap randomisation's cheap searches: the agent's, with `sims` simulations
// and no root noise (they are not recorded, so they need no exploration).
std::string cheapSearchSpec(const std::string& spec, int sims);

// The spec a self-play agent plays: an "az" spec searches one leaf at a time (batch=1), as
// lock-step self-play does, so that both give the same data (its policy targets are the visit
// shares of that search); other specs as given. Throws ConfigError for an "az" spec that asks
// for another batch.
std::string oneLeafAtATime(const std::string& spec);

// SelfPlayConfig::handicap_spread in half VP. Throws ConfigError for a spread that is not a
// whole or half number of VP.
int handicapSpreadHalf(const SelfPlayConfig& c);

// The side boost_sims applies to: 0 or 1, or -1 without a boost. Throws ConfigError for a
// boost_side that is not "blue" or "orange", or boost_sims without one.
int boostedSide(const SelfPlayConfig& c);

}  // namespace morne::training
