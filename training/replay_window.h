#pragma once
// The replay window of training (KataGo's, "Accelerating Self-Play Learning in Go", 2019): the
// learner samples from the most recent rows only, and the window grows with the data so that
// early, weak games leave it:
//
//   window(N) = N                                  for N <= c
//   window(N) = c (1 + b ((N / c)^a - 1) / a)      beyond
//
// where N is every row written so far. KataGo uses c = 250,000, a = 0.75, b = 0.4; morne's
// defaults are sized for a small machine (docs/training.md).

#include <cstdint>

namespace morne::training {

struct WindowConfig {
  double c = 20'000;  // rows before the window starts to lag behind the data
  double a = 0.75;    // exponent of the growth
  double b = 0.4;     // scale of the growth
};

// The rows of the window when `total` rows have been written (at most `total`).
int64_t windowRows(int64_t total, const WindowConfig& w);

// Whether the game with this per-game seed (GameData::seed) belongs to the validation set:
// a share `permille` / 1000 of the games, chosen by a hash of the seed, never trained on.
bool isValidationGame(uint64_t game_seed, int permille);

}  // namespace morne::training
