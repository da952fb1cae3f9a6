#pragma once
// Human-readable and JSON forms of events, for game logs and the protocol's "apply" replies.

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "env/events.h"
#include "env/scenario.h"

namespace morne::env {

// One line of English describing the event ("B1 0304>0404 (1 MP, 2 left)").
std::string eventText(const Scenario& sc, const Event& e);

// The event as a JSON object: {"event": "step", "unit": "B1", "from": "0304", ...}.
nlohmann::json eventJson(const Scenario& sc, const Event& e);

}  // namespace morne::env
