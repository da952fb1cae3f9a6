#include <algorithm>

#include "env/action.h"
#include "env/error.h"
#include "env/io/field_table.h"
#include "env/io/scenario_library.h"
#include "env/scenario.h"
#include "nn/network.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"

namespace morne::nn {

NetworkConfig networkConfigFor(const env::Scenario& scenario) {
  NetworkConfig c;
  c.input = ObservationEncoder(scenario).shape();
  c.policy_planes = PolicyLayout(scenario).planes();
  c.scenario = scenario.name();
  return c;
}

NetworkConfig anyMapNetworkConfig() {
  int range = 0;
  for (const env::BuiltinScenario& b : env::builtinScenarios())
    range = std::max(range, env::loadScenario(b.name)->maxRange());
  NetworkConfig c;
  c.input = ObservationEncoder(*env::loadScenario(env::kDefaultScenario)).shape();
  c.input.height = c.input.width = 0;
  c.policy_planes = env::actionPlanesForRange(range);
  c.scenario = kAnyScenario;
  return c;
}

void checkNetworkFits(const NetworkConfig& c, const env::Scenario& sc) {
  const ObservationShape shape = ObservationEncoder(sc).shape();
  const int planes = env::actionPlanes(sc);
  const bool fits = c.input.planes == shape.planes && c.input.globals == shape.globals &&
                    (c.anyMap() ? planes <= c.policy_planes
                                : c.input.height == shape.height && c.input.width == shape.width &&
                                      planes == c.policy_planes);
  if (fits) return;
  auto grid = [](int width, int height) {
    return width == 0 ? std::string("any map")
                      : std::to_string(width) + "x" + std::to_string(height);
  };
  throw ConfigError(
      "network made for scenario \"" + c.scenario + "\" (" + grid(c.input.width, c.input.height) +
      ", " + std::to_string(c.policy_planes) + " action planes, " + std::to_string(c.input.planes) +
      " observation planes) cannot play \"" + sc.name() + "\" (" + grid(shape.width, shape.height) +
      ", " + std::to_string(planes) + ", " + std::to_string(shape.planes) + ")");
}

std::vector<std::string> builtinScenariosPlayed(const NetworkConfig& c) {
  std::vector<std::string> names;
  for (const env::BuiltinScenario& b : env::builtinScenarios()) {
    try {
      checkNetworkFits(c, *env::loadScenario(b.name));
      names.emplace_back(b.name);
    } catch (const ConfigError&) {
    }
  }
  return names;
}

namespace {

// The network file's format, saved in its config: 2 added the weights checksum (format 1 files,
// without one, still load), 3 the auxiliary heads (files before have none). "provenance" may be
// absent from any; 4 the any-map networks (height and width 0).
constexpr int kConfigFormat = 4;

const env::OptionRow<ObservationShape> kInputRows[] = {
    {"planes", &ObservationShape::planes, {1, 4096}, "observation planes"},
    {"height", &ObservationShape::height, {0, 4096}, "map rows (0: any map)"},
    {"width", &ObservationShape::width, {0, 4096}, "map columns (0: any map)"},
    {"globals", &ObservationShape::globals, {0, 4096}, "global features"},
};

const env::OptionRow<NetworkConfig> kConfigRows[] = {
    {"policy_planes", &NetworkConfig::policy_planes, {1, 4096}, "action planes"},
    {"blocks", &NetworkConfig::blocks, {0, kMaxBlocks}, "residual blocks"},
    {"channels", &NetworkConfig::channels, {1, kMaxChannels}, "channels of the trunk"},
    {"value_hidden", &NetworkConfig::value_hidden, {1, kMaxValueHidden}, "units of the value head"},
    {"aux_heads", &NetworkConfig::aux_heads, env::anyValue(),
     "margin, control and short-term value heads"},
    {"encoder_version", &NetworkConfig::encoder_version, env::anyValue(),
     "the observation and policy encoding"},
    {"scenario", &NetworkConfig::scenario, env::anyValue(), "the scenario it was made for"},
    {"provenance", &NetworkConfig::provenance, env::anyValue(), "how the weights were made"},
};

}  // namespace

nlohmann::json networkConfigJson(const NetworkConfig& c) {
  nlohmann::json j = env::optionsJson<NetworkConfig>(kConfigRows, c);
  j.update(env::optionsJson<ObservationShape>(kInputRows, c.input));
  j["format"] = kConfigFormat;
  return j;
}

NetworkConfig networkConfigFromJson(const nlohmann::json& saved, const std::string& path) {
  const std::string where = path + ": network config";
  if (!saved.is_object() || !saved.contains("format") || !saved.at("format").is_number_integer())
    throw ConfigError(where + ": no format");
  const int format = saved.at("format").get<int>();
  if (format < 1 || format > kConfigFormat) {
    throw ConfigError(path + ": network format " + std::to_string(format) +
                      " is not one this morne reads (1.." + std::to_string(kConfigFormat) + ")");
  }
  nlohmann::json j = saved;
  if (!j.contains("provenance")) j["provenance"] = "";
  if (format < 3) j["aux_heads"] = false;
  NetworkConfig c;
  env::readOptionsJson<NetworkConfig>(where, j, kConfigRows, c);
  env::readOptionsJson<ObservationShape>(where, j, kInputRows, c.input);
  if ((c.input.height == 0) != (c.input.width == 0) || (c.anyMap() && format < 4))
    throw ConfigError(where + ": a map of " + std::to_string(c.input.width) + "x" +
                      std::to_string(c.input.height) + " (0x0 only for an any-map network)");
  return c;
}

}  // namespace morne::nn
