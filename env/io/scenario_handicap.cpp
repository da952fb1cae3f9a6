#include "env/io/scenario_handicap.h"

#include <nlohmann/json.hpp>

#include "env/io/scenario_json.h"
#include "env/victory.h"

namespace morne::env {

std::string handicapText(int signed_half) {
  if (signed_half == 0) return "none";
  const int magnitude = signed_half < 0 ? -signed_half : signed_half;
  return "+" + halfVpText(magnitude) + " VP to " + (signed_half > 0 ? "blue" : "orange");
}

std::string scenarioTextWithHandicap(std::string_view text, int signed_half) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
  const int magnitude = signed_half < 0 ? -signed_half : signed_half;
  nlohmann::ordered_json balance = {{"vp_to", signed_half < 0 ? "orange" : "blue"}};
  if (magnitude % 2 == 0) {
    balance["vp"] = magnitude / 2;
  } else {
    balance["vp"] = magnitude / 2.0;
  }
  doc["balance"] = balance;
  return doc.dump(2) + "\n";
}

std::shared_ptr<const Scenario> withHandicap(const Scenario& sc, int signed_half) {
  return parseScenario(scenarioTextWithHandicap(sc.sourceText(), signed_half),
                       sc.name() + " with handicap " + handicapText(signed_half));
}

}  // namespace morne::env
