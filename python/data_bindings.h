#pragma once
// The data of the Python module (docs/python.md, "Training data"): the shuffled rows of
// self-play shards as numpy arrays (morne.ShardStream, wrapped by morne.read_shards), and the
// shards' schema.

#include <pybind11/pybind11.h>

namespace morne::python {

// Adds ShardStream and data_schema to `m`.
void bindData(pybind11::module_& m);

}  // namespace morne::python
