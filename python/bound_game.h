#pragma once
// The C++ objects behind morne.Scenario and morne.State, shared by the binding files.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "env/action.h"
#include "env/game_state.h"
#include "env/scenario.h"
#include "nn/observation.h"

namespace morne::python {

// A loaded scenario and its observation encoder, shared by every state of it (a state holds a
// pointer into the scenario, which therefore lives as long as its last state).
class BoundScenario {
 public:
  explicit BoundScenario(std::shared_ptr<const env::Scenario> scenario)
      : scenario_(std::move(scenario)), encoder_(*scenario_) {}
  const env::Scenario& scenario() const { return *scenario_; }
  const std::shared_ptr<const env::Scenario>& shared() const { return scenario_; }
  const nn::ObservationEncoder& encoder() const { return encoder_; }

 private:
  std::shared_ptr<const env::Scenario> scenario_;
  nn::ObservationEncoder encoder_;
};

// One game position of a bound scenario. The observation buffers are made on the first
// observation() call, and the legal actions kept by legal_actions() for the position they were
// listed in (apply() of that position then checks an action without listing them again); a
// copy of the state never copies either: clone() stays a flat copy.
struct BoundState {
  std::shared_ptr<BoundScenario> game;
  env::GameState state;
  std::vector<float> planes;
  std::vector<float> globals;
  std::optional<env::GameState> legal_of;
  std::vector<env::Action> legal;

  BoundState(std::shared_ptr<BoundScenario> g, const env::GameState& s)
      : game(std::move(g)), state(s) {}
  BoundState clone() const { return BoundState(game, state); }
};

// `scenario` itself; TypeError naming `where` when it is None (pybind11 passes None as an empty
// holder).
const std::shared_ptr<BoundScenario>& requireScenario(
    const std::shared_ptr<BoundScenario>& scenario, const char* where);

// The bound scenario of a loaded scenario, or of a scenario document's text (parsed only when
// new; throws ValidationError naming `source`): one object per distinct document while
// any of its states lives, so that the states of one scenario, unpickled ones included, share
// it.
std::shared_ptr<BoundScenario> boundScenario(std::shared_ptr<const env::Scenario> scenario);
std::shared_ptr<BoundScenario> boundScenarioOfText(const std::string& text,
                                                   const std::string& source);

}  // namespace morne::python
