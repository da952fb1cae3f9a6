#include "training/selfplay_options.h"

namespace morne::training {

namespace {

const env::OptionRow<SelfPlayConfig> kPlayRows[] = {
    {"games-per-thread", &SelfPlayConfig::games_per_thread, env::atLeast(1),
     "games a worker keeps going in lock-step, their leaves evaluated in one batch (az agents)"},
    {"batch-invariant", &SelfPlayConfig::batch_invariant, env::anyValue(),
     "network batches of exactly --network-batch positions (padded), so that the data do not "
     "depend on --jobs (0: faster, the same data only for the same --jobs)"},
    {"network-batch", &SelfPlayConfig::network_batch, env::atLeast(0),
     "with --batch-invariant: positions in every network batch, the leaves of the lock-step "
     "games split into such batches, the last padded (0: --games-per-thread)",
     env::kRecorded, env::before("0")},
    {"lockstep", &SelfPlayConfig::lockstep, env::anyValue(),
     "play az agents in lock-step (0: one game at a time per worker: the same data, slower)",
     false},
    {"cache",
     &SelfPlayConfig::cache_entries,
     {0, 1e9},
     "evaluation cache entries per worker (az agents; 0: none)",
     false},
    {"temperature-moves", &SelfPlayConfig::temperature_moves, env::atLeast(0),
     "first decisions of a game drawn in proportion to the search's visits"},
    {"cheap-sims", &SelfPlayConfig::cheap_sims, env::atLeast(0),
     "playout cap randomisation: simulations of the cheap searches (0: off)"},
    {"full-probability",
     &SelfPlayConfig::full_search_probability,
     {0, 1, true, false},
     "playout cap randomisation: share of full searches (recorded)"},
    {"resign-value",
     &SelfPlayConfig::resign_value,
     {0, 1, false, true},
     "resign when the search values the position below minus this (0: never resign)"},
    {"resign-moves", &SelfPlayConfig::resign_moves, env::atLeast(1),
     "... for this many decisions in a row"},
    {"resign-check",
     &SelfPlayConfig::resign_check_fraction,
     {0, 1},
     "share of games that never resign, to measure false resignations"},
    {"adjudicate-after", &SelfPlayConfig::adjudicate_decisions, env::atLeast(0),
     "stop a game after this many decisions and score it as it stands (0: never)"},
    {"boost-side", &SelfPlayConfig::boost_side, env::anyValue(),
     "balancing: the side (blue or orange) whose full searches get --boost-sims simulations",
     env::kRecorded, env::before("\"\"")},
    {"boost-sims", &SelfPlayConfig::boost_sims, env::atLeast(0),
     "balancing: simulations of the boosted side's full searches (0: no boost)", env::kRecorded,
     env::before("0")},
    {"value-teacher", &SelfPlayConfig::value_teacher, env::anyValue(),
     "distillation: an agent spec (e.g. mcts:sims=64) whose search values each recorded "
     "position as well, kept as its teacher_value (train --teacher-ratio); it plays nothing",
     env::kRecorded, env::before("\"\"")},
    {"archive", &SelfPlayConfig::archive, env::anyValue(),
     "write one position of each game, drawn from its decisions, to PREFIX.positions.json",
     env::kRecorded, env::before("false")},
    {"handicap-spread",
     &SelfPlayConfig::handicap_spread,
     {0, kMaxHandicapSpread},
     "games draw their handicap uniformly within this many VP (whole or half) of the "
     "scenario's, in half points, so that the value learns what VP are worth (0: the "
     "scenario's)",
     env::kRecorded,
     env::before("0")},
    {"start-share",
     &SelfPlayConfig::start_share,
     {0, 1},
     "share of games started from archived positions (selfplay: --starts; loop: the archives "
     "of the last data sets)",
     env::kRecorded,
     env::before("0")},
};

}  // namespace

std::span<const env::OptionRow<SelfPlayConfig>> selfplayPlayRows() { return kPlayRows; }

}  // namespace morne::training
