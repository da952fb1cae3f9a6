#include "env/io/scenario_handicap.h"

#include <nlohmann/json.hpp>

#include "core/side_share.h"
#include "env/io/scenario_json.h"
#include "env/victory.h"

namespace morne::env {

std::string handicapText(int signed_half) {
  if (signed_half == 0) return "none";
  const int magnitude = signed_half < 0 ? -signed_half : signed_half;
  return "+" + halfVpText(magnitude) + " VP to " + (signed_half > 0 ? "blue" : "orange");
}

std::string balanceText(const Scenario& sc) {
  const int handicap = sc.balance().signedHalf();
  const auto& measured = sc.balanceMeasurements();
  if (handicap == 0 && measured.empty()) return "";
  std::string line = handicap == 0 ? "no handicap" : "handicap " + handicapText(handicap);
  if (measured.empty()) return line + " (not measured)";
  for (size_t i = 0; i < measured.size(); ++i) {
    const BalanceMeasurement& m = measured[i];
    const core::SideShare s = core::sideShare(m.blue, m.orange, m.draws);
    const auto vs = m.agents.find(" vs ");
    const std::string pair = vs == std::string::npos
                                 ? m.agents + " against itself"
                                 : m.agents.substr(0, vs) + " against " + m.agents.substr(vs + 4);
    line += (i == 0 ? ": blue wins " : ", ") + core::sideShareText(s) +
            (m.draws ? " (" + std::to_string(m.draws) + " drawn)" : "") + " of " + pair;
  }
  return line;
}

std::string scenarioTextWithHandicap(std::string_view text, int signed_half,
                                     const std::vector<BalanceMeasurement>& measured) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
  const int magnitude = signed_half < 0 ? -signed_half : signed_half;
  nlohmann::ordered_json balance = {{"vp_to", signed_half < 0 ? "orange" : "blue"}};
  if (magnitude % 2 == 0) {
    balance["vp"] = magnitude / 2;
  } else {
    balance["vp"] = magnitude / 2.0;
  }
  for (const BalanceMeasurement& m : measured) {
    nlohmann::ordered_json entry = {{"agents", m.agents},
                                    {"blue", m.blue},
                                    {"orange", m.orange},
                                    {"draws", m.draws},
                                    {"seed", m.seed}};
    balance["measured"].push_back(entry);
  }
  doc["balance"] = balance;
  return doc.dump(2) + "\n";
}

std::shared_ptr<const Scenario> withHandicap(const Scenario& sc, int signed_half) {
  return parseScenario(scenarioTextWithHandicap(sc.sourceText(), signed_half),
                       sc.name() + " with handicap " + handicapText(signed_half));
}

}  // namespace morne::env
