#include "training/selfplay_config.h"

#include "agents/agent_spec.h"

namespace morne::training {

std::string cheapSearchSpec(const std::string& spec, int sims) {
  agents::AgentSpec parsed = agents::parseAgentSpec(spec);
  parsed.params.erase("ms");
  parsed.params.erase("turn_ms");
  parsed.params.erase("noise");
  parsed.params.erase("noise_fraction");
  parsed.params["sims"] = std::to_string(sims);
  return agents::specText(parsed);
}

}  // namespace morne::training
