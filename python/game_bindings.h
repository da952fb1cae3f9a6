#pragma once
// The game layer of the Python module (docs/python.md, "The game"): morne.Scenario, morne.State
// and morne.Rng over env/ — legal actions and masks in the flat policy index, exact chance
// outcomes, copies, JSON and pickling, and the observation as arrays without a copy.

#include <pybind11/pybind11.h>

namespace morne::python {

// Adds the scenario, state and random-number classes, load_scenario and the player constants
// (BLUE, ORANGE, CHANCE, TERMINAL) to `m`.
void bindGame(pybind11::module_& m);

}  // namespace morne::python
