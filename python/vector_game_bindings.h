#pragma once
// The batched layer of the Python module (docs/python.md, "Many games at once"):
// morne.VectorGame over python/vector_game.h, and morne.derive_seed.

#include <pybind11/pybind11.h>

namespace morne::python {

// Adds VectorGame and derive_seed to `m`.
void bindVectorGame(pybind11::module_& m);

}  // namespace morne::python
