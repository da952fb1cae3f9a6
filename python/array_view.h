#pragma once
// Numpy arrays over memory the C++ side keeps (no copy), shared by the binding files.

#include <pybind11/numpy.h>

#include <vector>

namespace morne::python {

// A read-only array of `shape` over `data`, which `owner` (the Python object holding it) keeps
// alive as long as the array lives.
template <class T>
pybind11::array_t<T> readOnlyView(std::vector<T>& data, std::vector<pybind11::ssize_t> shape,
                                  const pybind11::object& owner) {
  pybind11::array_t<T> a(std::move(shape), data.data(), owner);
  pybind11::detail::array_proxy(a.ptr())->flags &= ~pybind11::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

}  // namespace morne::python
