#pragma once
// Text and JSON forms of actions, in the vocabulary of scenario files (hex labels, unit ids),
// and the explanation of why an action is illegal. Used by logs, the protocol and the CLI.
//
// Text form: "end", "place 0203", "move 0304>0404" (or "move 0304 NE"),
// "charge 0506>0507".
// JSON form: {"type":"move","unit":"B1","from":"0304","to":"0404"}; "charge" adds "target";
// "place" has "unit" and "to"; "end" has "phase". docs/protocol.md lists every field.

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "env/action.h"
#include "env/game_state.h"
#include "env/io/refusal.h"

namespace morne::env {

// Short text form of action `a` in state `s` (the state supplies the unit ids).
std::string actionText(const GameState& s, Action a);

// Canonical JSON form of action `a` in state `s`.
nlohmann::json actionJson(const GameState& s, Action a);

// Parses the text form. On failure returns nullopt and sets *error to the reason. When the text
// is well formed but no action of its kind joins the two hexes it names (not adjacent; beyond
// every gun's range), the rules refuse it: *refusal says so, when `refusal` is given.
// Does not check legality (see explainIllegal).
std::optional<Action> parseActionText(const GameState& s, std::string_view text, std::string* error,
                                      std::optional<Refusal>* refusal = nullptr);

// Parses the JSON form. On failure returns nullopt and sets *error to "PATH: reason", with
// PATH a JSON pointer inside `value` (e.g. "/from"), and *refusal as parseActionText does.
// Does not check legality.
std::optional<Action> parseActionJson(const GameState& s, const nlohmann::json& value,
                                      std::string* error,
                                      std::optional<Refusal>* refusal = nullptr);

// Why `a` is not legal in `s`: the reason, the rule and a sentence; nullopt if it is legal.
std::optional<Refusal> explainIllegal(const GameState& s, Action a);

}  // namespace morne::env
