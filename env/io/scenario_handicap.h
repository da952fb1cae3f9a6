#pragma once
// A scenario's victory-point handicap (docs/scenario-format.md, "balance") as text, and the
// same scenario with another handicap: what `morne scenario balance` tries and writes,
// and what self-play varies per game.

#include <memory>
#include <string>
#include <string_view>

#include "env/scenario.h"

namespace morne::env {

// "+1.5 VP to blue", "+2 VP to orange", "none".
std::string handicapText(int signed_half);

// The scenario document `text` (a scenario or a variant, already valid) with its "balance" set
// to `signed_half`, keys in their order, indented by 2.
std::string scenarioTextWithHandicap(std::string_view text, int signed_half);

// `sc` with the handicap `signed_half` instead of its own, its source text changed to match.
std::shared_ptr<const Scenario> withHandicap(const Scenario& sc, int signed_half);

}  // namespace morne::env
