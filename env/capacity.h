#pragma once
// Compile-time capacities of a GameState (see CMakeLists.txt: MORNE_MAX_CELLS,
// MORNE_MAX_UNITS). They fix the size of the flat state; scenarios above them are rejected
// when they are loaded.

#include <cstdint>

#ifndef MORNE_MAX_CELLS
#define MORNE_MAX_CELLS 512
#endif
#ifndef MORNE_MAX_UNITS
#define MORNE_MAX_UNITS 64
#endif

namespace morne::env {

using CellId = int16_t;
inline constexpr CellId kNoCell = -1;

inline constexpr int kMaxCells = MORNE_MAX_CELLS;
inline constexpr int kMaxUnits = MORNE_MAX_UNITS;
inline constexpr int kMaxObjectives = 32;
inline constexpr int kMaxTracked = 32;  // hexes whose owner the state tracks (V-HEX-2)
inline constexpr int kMaxForts = 16;
static_assert(kMaxUnits <= 127, "unit indexes are stored as int8_t");
static_assert(kMaxCells <= 32767, "cell ids are stored as int16_t");

}  // namespace morne::env
