#pragma once
// One Python object used from several threads at once (an Agent, a VectorGame): its calls take
// turns on the object's own mutex, waited for without the GIL, so that a thread holding the
// GIL never waits for one that needs it.

#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>

namespace morne::python {

// Holds `mutex` until the returned lock goes; called with the GIL held, and holding it again on
// return.
inline std::unique_lock<std::mutex> holdObject(std::mutex& mutex) {
  std::unique_lock lock(mutex, std::try_to_lock);
  if (!lock.owns_lock()) {
    pybind11::gil_scoped_release release;
    lock.lock();
  }
  return lock;
}

}  // namespace morne::python
