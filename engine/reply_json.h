#pragma once
// Internal to the engine protocol: the JSON pieces several commands read or reply with.

#include <cstdint>
#include <nlohmann/json.hpp>

#include "env/events.h"
#include "env/game_state.h"
#include "env/scenario.h"

namespace morne::engine {

// The events of `log`, each as its JSON object plus "text", one line of English. With a
// `viewer` side (>= 0), the events about units hidden from it in `after` are left out (S-4).
nlohmann::json eventsJson(const env::GameState& after, const env::EventLog& log, int viewer);

// The integer value of request field `key`, or a bad_request naming it: no truncation, no
// wrap-around.
int64_t integerField(const nlohmann::json& req, const char* key, int64_t lo, int64_t hi);

// The result of the game in `s`: vp per side, winner, level, level_name, final.
nlohmann::json resultJson(const env::GameState& s);

}  // namespace morne::engine
