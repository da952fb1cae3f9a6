#pragma once
// The gate of `morne loop` (loop/learning_loop.h): whether a candidate network replaces the
// best one, from its results against it.

#include "arena/stats.h"

namespace morne::loop {

struct GateDecision {
  arena::WinDrawLoss candidate;  // its results against the best network
  double score = 0;
  bool promoted = false;
};

// The rule: promote when the candidate played and its score (wins plus half the draws, over
// its games) is at least `gate_score`.
GateDecision gateDecision(const arena::WinDrawLoss& candidate, double gate_score);

}  // namespace morne::loop
