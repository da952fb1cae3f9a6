#pragma once
// Scenario variants: a short document that names a built-in scenario ("variant_of") and
// changes only its name, texts, turns, rule switches, home edges and unit morale attributes
// (docs/scenario-format.md, docs/variants.md). It is expanded into the full scenario document
// before the usual validation, so everything downstream (the protocol, the client, records)
// sees an ordinary scenario.

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "env/error.h"

namespace morne::env {

// Whether `doc` is a variant document (an object with "variant_of").
bool isScenarioVariant(const nlohmann::json& doc);

// The full scenario document of the variant `doc`, or nullopt with `problems` filled (each
// with its JSON pointer and reason).
std::optional<nlohmann::json> expandScenarioVariant(const nlohmann::json& doc,
                                                    std::vector<Problem>& problems);

}  // namespace morne::env
