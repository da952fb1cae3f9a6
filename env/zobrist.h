#pragma once
// Zobrist keys for GameState hashing. The tables are filled once at start-up from a fixed seed,
// so hashes are identical across runs and machines (they may be written to files and compared).
// Lookups are inline: hashing sits on the hot path of every action.

#include <cstdint>

#include "env/capacity.h"
#include "env/rng.h"
#include "env/types.h"

namespace morne::env::zobrist {

// Limits of the hashed values; the loaders keep VC, MO and MP inside 0..kMaxValue-1.
inline constexpr int kMaxValue = 32;

struct Tables {
  uint64_t cell[kMaxUnits][kMaxCells + 1];  // index 0 is "off map" and holds 0
  uint64_t vc[kMaxUnits][kMaxValue];
  uint64_t mo[kMaxUnits][kMaxValue];
  uint64_t mp[kMaxUnits][kMaxValue];
  uint64_t flag[kMaxUnits][16];
  uint64_t owner[kMaxTracked][kNumSides + 1];  // index 0 is "no side" and holds 0
  uint64_t fort[kMaxForts][kNumSides + 1];
};

// The key tables, filled before main() runs.
extern const Tables& kTables;

// The mixer of the small header key (env/rng.h).
constexpr uint64_t mix(uint64_t x) { return splitMix64(x); }

inline uint64_t unitCell(int u, int c) { return kTables.cell[u][c + 1]; }
inline uint64_t unitVc(int u, int vc) { return kTables.vc[u][vc]; }
inline uint64_t unitMo(int u, int mo) { return kTables.mo[u][mo]; }
inline uint64_t unitMp(int u, int mp) { return kTables.mp[u][mp]; }
// XOR of the keys of the flag bits set in `bits`.
inline uint64_t unitFlags(int u, unsigned bits) {
  uint64_t k = 0;
  while (bits) {
    k ^= kTables.flag[u][__builtin_ctz(bits)];
    bits &= bits - 1;
  }
  return k;
}
// Key of a unit's step trail (0 for an empty trail).
inline uint64_t unitTrail(int u, unsigned trail) {
  return trail == 0 ? 0 : mix(static_cast<uint64_t>(u) << 8 | trail | 0x747261696C0000ull);
}
// Key of a unit's variant morale status (env/game_state.h MoraleStatus::packed; 0 for none).
inline uint64_t moraleStatus(int u, uint32_t packed) {
  return packed == 0 ? 0 : mix(static_cast<uint64_t>(u) << 32 | packed | 0x6D6F72ull << 40);
}
// Key of a handicap that differs from the scenario's by `offset` half VP (0 for none).
inline uint64_t handicap(int offset) {
  return offset == 0
             ? 0
             : mix(static_cast<uint64_t>(static_cast<uint32_t>(offset)) | 0x6B6F6D69ull << 32);
}
inline uint64_t owner(int tracked, int side) { return kTables.owner[tracked][side + 1]; }
inline uint64_t fortControl(int fort, int side) { return kTables.fort[fort][side + 1]; }

// Key of the (turn, phasing side, phase) header, packed into one word.
inline uint64_t header(int turn, int side, Phase phase) {
  const uint64_t packed = static_cast<uint64_t>(static_cast<uint16_t>(turn)) |
                          static_cast<uint64_t>(side & 0xff) << 16 |
                          static_cast<uint64_t>(phase) << 24;
  return mix(packed ^ 0x6D6F726E65ull);
}

}  // namespace morne::env::zobrist
