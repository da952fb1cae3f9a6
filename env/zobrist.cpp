#include "env/zobrist.h"

#include <memory>

namespace morne::env::zobrist {

namespace {

// Fills every key from one SplitMix64 stream with a fixed seed.
std::unique_ptr<Tables> makeTables() {
  auto t = std::make_unique<Tables>();
  uint64_t state = 0x4D6F726E65506C61ull;  // fixed seed: hashes are stable across runs
  auto next = [&state] {
    state += 0x9E3779B97F4A7C15ull;
    return mix(state);
  };
  for (int u = 0; u < kMaxUnits; ++u) {
    t->cell[u][0] = 0;
    for (int c = 1; c <= kMaxCells; ++c) t->cell[u][c] = next();
    for (int v = 0; v < kMaxValue; ++v) t->vc[u][v] = next();
    for (int v = 0; v < kMaxValue; ++v) t->mo[u][v] = next();
    for (int v = 0; v < kMaxValue; ++v) t->mp[u][v] = next();
    for (int b = 0; b < 16; ++b) t->flag[u][b] = next();
  }
  for (int o = 0; o < kMaxTracked; ++o) {
    t->owner[o][0] = 0;
    for (int s = 1; s <= kNumSides; ++s) t->owner[o][s] = next();
  }
  for (int f = 0; f < kMaxForts; ++f) {
    t->fort[f][0] = 0;
    for (int s = 1; s <= kNumSides; ++s) t->fort[f][s] = next();
  }
  return t;
}

const std::unique_ptr<Tables> kStorage = makeTables();

}  // namespace

const Tables& kTables = *kStorage;

}  // namespace morne::env::zobrist
