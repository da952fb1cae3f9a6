#pragma once
// Perft: the number of distinct sequences of plies of a given length, where a ply is one legal
// action or one outcome of a pending chance event (each outcome is a branch, whatever its
// probability). The counts are the oracle for move generation (tests/golden/perft.txt).
// A game that ends before `depth` plies contributes no sequence, as in chess perft.

#include <cstdint>
#include <optional>
#include <vector>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::env {

uint64_t perft(const GameState& s, int depth);

// Per-first-ply counts (Stockfish's "divide"): each root action or chance outcome and the
// number of sequences that start with it.
struct PerftBranch {
  std::optional<Action> action;  // the root action, or none for a chance outcome
  int outcome = 0;               // the chance outcome
  uint64_t count = 0;
};
std::vector<PerftBranch> perftDivide(const GameState& s, int depth);

}  // namespace morne::env
