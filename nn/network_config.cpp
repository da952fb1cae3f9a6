#include "env/error.h"
#include "env/io/field_table.h"
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

namespace {

// The network file's format, saved in its config: 2 added the weights checksum (format 1 files,
// without one, still load), 3 the auxiliary heads (files before have none). "provenance" may be
// absent from any.
constexpr int kConfigFormat = 3;

const env::OptionRow<ObservationShape> kInputRows[] = {
    {"planes", &ObservationShape::planes, {1, 4096}, "observation planes"},
    {"height", &ObservationShape::height, {1, 4096}, "map rows"},
    {"width", &ObservationShape::width, {1, 4096}, "map columns"},
    {"globals", &ObservationShape::globals, {0, 4096}, "global features"},
};

const env::OptionRow<NetworkConfig> kConfigRows[] = {
    {"policy_planes", &NetworkConfig::policy_planes, {1, 4096}, "action planes"},
    {"blocks", &NetworkConfig::blocks, {0, 64}, "residual blocks"},
    {"channels", &NetworkConfig::channels, {1, 1024}, "channels of the trunk"},
    {"value_hidden", &NetworkConfig::value_hidden, {1, 4096}, "units of the value head"},
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
  return c;
}

}  // namespace morne::nn
