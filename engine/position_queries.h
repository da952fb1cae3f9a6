#pragma once
// The engine protocol's questions about one position, and its previews (docs/protocol.md):
// each takes the position the request is about (the session resolves it: the request's own
// "state", or the game as the bound side may see it) and the request, and returns its reply's
// fields. Bad requests throw RequestError. Nothing here keeps state.

#include <nlohmann/json.hpp>

#include "env/game_state.h"

namespace morne::engine {

// A question about a position: the reply's fields.
using PositionQuery = nlohmann::json (*)(const env::GameState& s, const nlohmann::json& req);

// "legal": every legal action, as object, text and index.
nlohmann::json legalReply(const env::GameState& s, const nlohmann::json& req);
// "chance": the pending chance event and its exact outcomes.
nlohmann::json chanceReply(const env::GameState& s, const nlohmann::json& req);
// "reachable": every hex req["unit"] can reach this phase (or, outside it, next), with costs.
nlohmann::json reachableReply(const env::GameState& s, const nlohmann::json& req);
// "zoc": the hexes each side's units control.
nlohmann::json zoneOfControlReply(const env::GameState& s, const nlohmann::json& req);
// "los": line of sight between req["from"] and req["to"].
nlohmann::json lineOfSightReply(const env::GameState& s, const nlohmann::json& req);
// "preview_fire", "preview_combat", "preview_step" (previews.cpp): the factors and every
// outcome with its probability, exactly as the rules would resolve them.
nlohmann::json previewFireReply(const env::GameState& s, const nlohmann::json& req);
nlohmann::json previewCombatReply(const env::GameState& s, const nlohmann::json& req);
nlohmann::json previewStepReply(const env::GameState& s, const nlohmann::json& req);

// "charts": the loaded scenario's combat results table (C-CRT-1) and the movement points to
// enter each terrain of its map by movement class (MV-COST-1), for a player's reference.
nlohmann::json chartsReply(const env::GameState& s, const nlohmann::json& req);

// "scenarios": the built-in scenarios' name, title, turns and sides.
nlohmann::json builtinScenarioList();

// "models": the networks shipped with morne (agents/model_library.h), each its "name".
nlohmann::json shippedModelList();

// The unit req[key] names in `s`: a unit id or the label of the hex it stands on.
int unitArgument(const env::GameState& s, const nlohmann::json& req, const char* key);

}  // namespace morne::engine
