// The extension module morne._core: the bindings of python/*_bindings.cpp, and the engine's
// errors as Python exceptions (a bad scenario, state or record raises ValueError with the
// engine's message naming the place and the reason; an unreadable file raises OSError).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "env/error.h"
#include "python/agent_bindings.h"
#include "python/arena_bindings.h"
#include "python/data_bindings.h"
#include "python/game_bindings.h"
#include "python/query_bindings.h"
#include "python/vector_game_bindings.h"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "morne: the Morne Plaine wargame's rules, agents and data (docs/python.md)";
  // pybind11 finds numpy's C API on the first array it makes, in a function-local static whose
  // initialisation imports numpy: made there by two threads at once, one waits for the static
  // holding the GIL while the other waits for the GIL inside it. Made here, once, at import.
  (void)py::array_t<float>(0);
  (void)py::array_t<uint8_t>(0);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const morne::IoError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const morne::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  morne::python::bindGame(m);
  morne::python::bindQueries(m);
  morne::python::bindVectorGame(m);
  morne::python::bindAgents(m);
  morne::python::bindArena(m);
  morne::python::bindData(m);
}
