#pragma once
// The engine's random number generator: xoshiro256** seeded through SplitMix64. Every random
// draw in morne comes from an Rng built from an explicit seed, so the same seed always gives
// the same sequence on every machine. Never stored inside a GameState.

#include <cstdint>

namespace morne::env {

// SplitMix64's finaliser: a strong 64-bit mixer (hash keys, seeds).
constexpr uint64_t splitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The seed of one stream of a run: game `i` of a self-play run is deriveSeed(run_seed, i), the
// games of arena round r on scenario k deriveSeed(run_seed, k, r). Streams are combined as
// a polynomial in 7919, so each index below 7919 keeps streams apart.
template <class... Stream>
constexpr uint64_t deriveSeed(uint64_t base, Stream... streams) {
  uint64_t key = 0;
  ((key = key * 7919 + static_cast<uint64_t>(streams)), ...);
  return splitMix64(base * 1000003 + key);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (uint64_t& word : s_) {
      seed += 0x9E3779B97F4A7C15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      word = z ^ (z >> 31);
    }
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n); precondition n > 0. Lemire's multiply-shift with rejection,
  // so the result is exactly uniform.
  uint32_t below(uint32_t n) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n;
    auto low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace morne::env
