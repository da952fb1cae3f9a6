#pragma once
// The game layer of the Python module (docs/python.md, "The game"): morne.Scenario, morne.State
// and morne.Rng over env/ — legal actions and masks in the flat policy index, exact chance
// outcomes, copies, JSON and pickling, and the observation as arrays without a copy.

#include <pybind11/pybind11.h>

#include "env/action.h"
#include "python/bound_game.h"

namespace morne::python {

// The action `action` names in `b`: its flat index (an int) or its text form ("move
// 0307>0306"). Throws ValueError when it is malformed or not legal there, with the engine's
// reason, and TypeError when it is neither an int nor a str.
env::Action legalAction(const BoundState& b, const pybind11::handle& action);

// Adds the scenario, state and random-number classes, load_scenario and the player constants
// (BLUE, ORANGE, CHANCE, TERMINAL) to `m`.
void bindGame(pybind11::module_& m);

}  // namespace morne::python
