#pragma once
// JSON form of a GameState, in the vocabulary of scenario files (docs/protocol.md, "state").
// The round trip is exact: stateFromJson(stateToJson(s)) == s.

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "env/game_state.h"

namespace morne::env {

// The format tag written into every saved state.
inline constexpr const char* kStateFormat = "morne-state/1";

// Serialises a state: header, every unit in scenario order, tracked hex owners, forts, hash.
nlohmann::json stateToJson(const GameState& s);

// Rebuilds a state of scenario `sc` from its JSON form and validates it: every unit listed
// once, hexes on the map, no stacking, values within the unit's limits, flags known, the
// pending event consistent, and the hash (when given) equal to the recomputed one. Throws
// ValidationError naming `source` and each problem's JSON pointer.
GameState stateFromJson(const Scenario& sc, const nlohmann::json& j, const std::string& source);

// Reads a saved state of scenario `sc` from the file `path` (env/io/text_file.h) and validates it
// as stateFromJson does. Throws IoError or ValidationError naming the file.
GameState loadStateFile(const Scenario& sc, const std::string& path);

}  // namespace morne::env
