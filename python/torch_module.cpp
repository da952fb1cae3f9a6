// The extension module morne._torch: the network loader of the "az" agents, over LibTorch
// (training/network_loader.h), handed to morne._core as a capsule (network_loader_capsule.h).
// Imported by morne only when an "az" spec is first used. It leaves LibTorch's thread settings
// as they are (a program that also trains with torch keeps its own).

#include <pybind11/pybind11.h>

#include "python/network_loader_capsule.h"
#include "training/network_loader.h"

namespace py = pybind11;

PYBIND11_MODULE(_torch, m) {
  m.doc() = "morne's network loader over LibTorch (used by morne itself)";
  m.def("network_loader", [] {
    static const morne::python::NetworkLoaderTable table{&morne::training::loadNetworkEvaluator};
    return py::capsule(&table, morne::python::kNetworkLoaderCapsule);
  });
}
