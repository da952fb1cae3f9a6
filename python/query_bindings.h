#pragma once
// The position questions and previews of the engine protocol as State methods
// (docs/python.md, "Previews"): reachable, zone_of_control, line_of_sight, preview_fire,
// preview_combat, preview_step, each taking the request's fields as keywords and returning the
// reply's as a dict.

#include <pybind11/pybind11.h>

namespace morne::python {

// Adds the query methods to the already bound morne.State.
void bindQueries(pybind11::module_& m);

}  // namespace morne::python
