#pragma once
// ASCII rendering of a position: the hex grid with terrain, elevation and units, followed by a
// legend of hexside features, objectives and units. For `morne scenario show` and game logs.
//
// Each hex is drawn as four characters "tlUV": t the terrain code (docs/scenario-format.md),
// l the elevation level (0-9, '-' below 0), UV the unit if any: its type letter (upper case for
// blue, lower case for orange) and its current VC. Rows are shifted half a hex as on the map.
// The character before a hex is '*' for an objective, '=' for a road hex, else a space.

#include <string>

#include "env/game_state.h"

namespace morne::env {

std::string renderMap(const GameState& s);

}  // namespace morne::env
