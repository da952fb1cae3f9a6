#pragma once
// Long work started from Python (a search, an arena) runs on a thread of its own while the
// calling thread waits without the GIL and, every 50 ms, lets Python see a signal: Ctrl-C sets
// the work's stop flag, the work ends early, and the caller raises KeyboardInterrupt once it
// has wrapped up (an arena writes the reports of its finished games first).

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <future>
#include <optional>

namespace morne::python {

// Waits until `running` is ready; called with the GIL held. A signal Python raised meanwhile
// sets `stop` and is returned (to be thrown by the caller); nothing when none came.
template <class T>
std::optional<pybind11::error_already_set> waitSeeingSignals(std::future<T>& running,
                                                             std::atomic<bool>& stop) {
  std::optional<pybind11::error_already_set> interrupted;
  for (;;) {
    std::future_status status;
    {
      pybind11::gil_scoped_release release;
      status = running.wait_for(std::chrono::milliseconds(50));
    }
    if (status == std::future_status::ready) return interrupted;
    if (!interrupted && PyErr_CheckSignals() != 0) {
      interrupted.emplace();
      stop = true;
    }
  }
}

}  // namespace morne::python
