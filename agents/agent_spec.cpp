#include "agents/agent_spec.h"

#include "env/error.h"

namespace morne::agents {

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

AgentSpec parseAgentSpec(std::string_view text) {
  AgentSpec spec;
  const auto colon = text.find(':');
  spec.name = trim(text.substr(0, colon));
  if (spec.name.empty())
    throw ConfigError("agent spec \"" + std::string(text) + "\": missing agent name");
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw ConfigError("agent spec \"" + std::string(text) + "\": parameter \"" + trim(item) +
                        "\" needs the form key=value");
    }
    const std::string key = trim(item.substr(0, eq));
    if (key.empty() || spec.params.count(key)) {
      throw ConfigError(
          "agent spec \"" + std::string(text) + "\": " +
          (key.empty() ? "empty parameter name" : "parameter \"" + key + "\" given twice"));
    }
    spec.params[key] = trim(item.substr(eq + 1));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return spec;
}

std::string withBudget(std::string_view spec, const std::string& budget, int64_t value) {
  AgentSpec parsed = parseAgentSpec(spec);
  for (const char* key : {"sims", "ms", "turn_ms"}) parsed.params.erase(key);
  parsed.params[budget] = std::to_string(value);
  return specText(parsed);
}

std::string withModel(std::string_view spec, const std::string& path) {
  const AgentSpec parsed = parseAgentSpec(spec);
  if (parsed.params.count("model"))
    throw ConfigError("agent spec " + std::string(spec) + " already names a model");
  if (path.empty() || path.find_first_of(",: \t\n") != std::string::npos) {
    throw ConfigError("the network path \"" + path +
                      "\" holds a ',', ':' or a space, which an agent spec cannot carry in "
                      "model= (move the run or the file to a path without them)");
  }
  return std::string(spec) +
         (parsed.params.empty() && spec.find(':') == std::string_view::npos ? ":" : ",") +
         "model=" + path;
}

std::string specText(const AgentSpec& spec) {
  std::string out = spec.name;
  char sep = ':';
  for (const auto& [key, value] : spec.params) {
    out += sep + key + "=" + value;
    sep = ',';
  }
  return out;
}

}  // namespace morne::agents
