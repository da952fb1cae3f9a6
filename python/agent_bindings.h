#pragma once
// The agents of the Python module (docs/python.md, "Agents and the arena"): morne.Agent over
// every built-in spec, its decision and analysis, and the catalog.

#include <pybind11/pybind11.h>

namespace morne::python {

// Adds Agent and agent_catalog to `m`, and lets "az" specs load their networks.
void bindAgents(pybind11::module_& m);

}  // namespace morne::python
