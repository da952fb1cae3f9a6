#pragma once
// The arena of the Python module (docs/python.md, "Agents and the arena"): built-in specs and
// agents written in Python in one duplicate round robin, with the reports of `morne arena`.

#include <pybind11/pybind11.h>

namespace morne::python {

// Adds _arena (wrapped by morne.arena in python/morne/arena.py) to `m`.
void bindArena(pybind11::module_& m);

}  // namespace morne::python
