#include "training/selfplay_config.h"

#include <cmath>
#include <sstream>

#include "agents/agent_spec.h"
#include "env/error.h"
#include "env/types.h"

namespace morne::training {

std::string cheapSearchSpec(const std::string& spec, int sims) {
  agents::AgentSpec parsed = agents::parseAgentSpec(agents::withBudget(spec, "sims", sims));
  parsed.params.erase("noise");
  parsed.params.erase("noise_fraction");
  return agents::specText(parsed);
}

std::string oneLeafAtATime(const std::string& spec) {
  agents::AgentSpec parsed = agents::parseAgentSpec(spec);
  if (parsed.name != "az") return spec;
  const auto batch = parsed.params.find("batch");
  if (batch != parsed.params.end() && batch->second != "1") {
    throw ConfigError("selfplay: " + spec +
                      ": self-play searches one leaf at a time (lock-step games share their "
                      "network batches instead); drop batch=" +
                      batch->second);
  }
  parsed.params["batch"] = "1";
  return agents::specText(parsed);
}

int boostedSide(const SelfPlayConfig& c) {
  if (c.boost_sims <= 0) return -1;
  const std::optional<int> side = env::parseSideColor(c.boost_side);
  if (!side) {
    throw ConfigError("selfplay: --boost-sims needs --boost-side blue or orange (got \"" +
                      c.boost_side + "\")");
  }
  return *side;
}

int handicapSpreadHalf(const SelfPlayConfig& c) {
  const double half = c.handicap_spread * 2;
  if (!(half >= 0 && half <= 2 * kMaxHandicapSpread) || half != std::floor(half)) {
    throw ConfigError("selfplay: --handicap-spread " +
                      [&] {
                        std::ostringstream text;
                        text << c.handicap_spread;
                        return text.str();
                      }() +
                      ": a whole or half number of victory points from 0 to " +
                      std::to_string(static_cast<int>(kMaxHandicapSpread)));
  }
  return static_cast<int>(half);
}

}  // namespace morne::training
