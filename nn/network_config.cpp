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

}  // namespace morne::nn
