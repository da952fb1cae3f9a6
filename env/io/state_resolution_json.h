#pragma once
// Internal to env/io/state_json.cpp: the JSON form of what a state is in the middle of resolving
// (the pending chance event, reaction fire, the charge decision, the combat in progress),
// read back with every consistency check that keeps the rules from acting on a state they
// could never have produced.

#include <nlohmann/json.hpp>

#include "env/game_state.h"
#include "env/io/json_reader.h"

namespace morne::env {

// Adds "pending", "reacting_to", "charge_window" and "combat" to a state object.
void writeResolution(const GameState& s, nlohmann::json& j);

// Reads them from a state object whose units are already read into `s`.
void readResolution(JsonReader& in, const nlohmann::json& j, GameState& s);

}  // namespace morne::env
