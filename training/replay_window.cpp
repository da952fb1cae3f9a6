#include "training/replay_window.h"

#include <algorithm>
#include <cmath>

#include "env/rng.h"

namespace morne::training {

int64_t windowRows(int64_t total, const WindowConfig& w) {
  const double n = static_cast<double>(total);
  if (n <= w.c) return total;
  const double rows = w.c * (1 + w.b * (std::pow(n / w.c, w.a) - 1) / w.a);
  return std::min(total, static_cast<int64_t>(rows));
}

bool isValidationGame(uint64_t game_seed, int permille) {
  return static_cast<int>(env::splitMix64(game_seed ^ 0x76616C6964ull) % 1000) < permille;
}

}  // namespace morne::training
