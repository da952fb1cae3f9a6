#pragma once
// A scenario's victory-point handicap (docs/scenario-format.md, "balance") as text, and the
// same scenario with another handicap: what `morne scenario balance` tries and writes,
// and what self-play varies per game; the line that states it with its measurements.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "env/scenario.h"

namespace morne::env {

// "+1.5 VP to blue", "+2 VP to orange", "none".
std::string handicapText(int signed_half);

// The scenario's handicap and how it was measured, in one line (the client's scenario card):
// "handicap +0.5 VP to orange: blue wins 47.2% [42.4, 52.1] of 400 decisive games of
// mcts:sims=64 against itself, ..."; "" for a scenario with neither.
std::string balanceText(const Scenario& sc);

// The scenario document `text` (a scenario or a variant, already valid) with its "balance" set
// to `signed_half` and `measured` (left out when empty), keys in their order, indented by 2.
std::string scenarioTextWithHandicap(std::string_view text, int signed_half,
                                     const std::vector<BalanceMeasurement>& measured = {});

// `sc` with the handicap `signed_half` instead of its own, its source text changed to match.
std::shared_ptr<const Scenario> withHandicap(const Scenario& sc, int signed_half);

}  // namespace morne::env
