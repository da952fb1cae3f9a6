#pragma once
// How far apart a search's values of the moves it tried lie: the probe of a value head that has
// learned a constant (docs/training.md, "A value that predicts a constant"). Inside a search led
// by such a head the children of the root all get about the same value, and the search follows
// its priors.

#include <cstdint>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "env/scenario.h"

namespace morne::agents {

// `count` decision positions with a real choice (more than one legal action), spread evenly over
// one game of `rule` against itself on `sc` with dice seed `seed`: a fixed position set for
// probes and benchmarks (fewer when the game has fewer).
std::vector<env::GameState> ruleGamePositions(const env::Scenario& sc, uint64_t seed, size_t count);

// The mean over `positions` of the standard deviation of the root children's values (side to
// move's point of view) among the children the search of `spec` visited, each child counted
// once; positions where it visited fewer than two children count 0. Throws ConfigError on a bad
// spec.
double searchValueSpread(const std::string& spec, const std::vector<env::GameState>& positions);

}  // namespace morne::agents
