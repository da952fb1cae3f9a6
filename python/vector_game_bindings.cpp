#include "python/vector_game_bindings.h"

#include <pybind11/numpy.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "python/array_view.h"
#include "python/bound_game.h"
#include "python/object_lock.h"
#include "python/vector_game.h"

namespace py = pybind11;

namespace morne::python {

namespace {

// A VectorGame and the scenario it plays, kept alive together.
struct BoundVectorGame {
  std::shared_ptr<BoundScenario> game;
  VectorGame games;
  std::vector<int32_t> actions;  // step()'s argument as int32, one per game
  std::unique_ptr<std::mutex> busy = std::make_unique<std::mutex>();  // one call at a time
};

// The most threads a VectorGame takes.
constexpr int kMaxThreads = 256;

BoundVectorGame& bound(const py::object& self) { return self.cast<BoundVectorGame&>(); }

}  // namespace

void bindVectorGame(py::module_& m) {
  py::class_<BoundVectorGame>(
      m, "VectorGame",
      "n games of one scenario stepped together in C++; observations, masks and rewards are "
      "read-only views of its arrays, rewritten by each reset() and step().")
      .def(py::init([](const std::shared_ptr<BoundScenario>& scenario, int n, uint64_t seed,
                       bool auto_chance, int threads) {
             requireScenario(scenario, "VectorGame: scenario");
             if (threads < 1 || threads > kMaxThreads) {
               throw py::value_error("VectorGame: threads must be in [1, " +
                                     std::to_string(kMaxThreads) + "] (got " +
                                     std::to_string(threads) + ")");
             }
             VectorGame games(scenario->scenario(), n, seed, auto_chance, threads);
             return new BoundVectorGame{scenario, std::move(games),
                                        std::vector<int32_t>(static_cast<size_t>(n))};
           }),
           py::arg("scenario"), py::arg("n"), py::arg("seed") = 1, py::arg("auto_chance") = true,
           py::arg("threads") = 1,
           "Slot i's dice are Rng(derive_seed(seed, i)); the results do not depend on threads.")
      .def_property_readonly("size", [](const BoundVectorGame& v) { return v.games.size(); })
      .def_property_readonly("scenario", [](const BoundVectorGame& v) { return v.game; })
      .def(
          "reset",
          [](const py::object& self) {
            {
              const auto lock = holdObject(*bound(self).busy);
              py::gil_scoped_release release;
              bound(self).games.reset();
            }
            return self.attr("observations")();
          },
          "Restarts every game; returns observations().")
      .def(
          "step",
          [](const py::object& self, const py::object& actions) {
            BoundVectorGame& v = bound(self);
            const auto lock = holdObject(*v.busy);
            const py::array given = py::array::ensure(actions);
            if (!given || given.ndim() != 1 || given.shape(0) != v.games.size()) {
              throw py::value_error("VectorGame.step: actions must be a 1-D array of " +
                                    std::to_string(v.games.size()) + " integers");
            }
            const char kind = given.dtype().kind();
            if (kind != 'i' && kind != 'u') {
              throw py::type_error("VectorGame.step: actions must be integers, not " +
                                   std::string(py::str(given.dtype())));
            }
            const auto wide =
                py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(given);
            for (py::ssize_t i = 0; i < wide.shape(0); ++i) {
              const int64_t a = wide.at(i);
              // Out of int32's range: no action, reported as such by step().
              v.actions[static_cast<size_t>(i)] =
                  a < INT32_MIN || a > INT32_MAX ? -1 : static_cast<int32_t>(a);
            }
            try {
              py::gil_scoped_release release;
              v.games.step(v.actions);
            } catch (const std::invalid_argument& e) {
              throw py::value_error(e.what());
            }
            const int n = v.games.size();
            return py::make_tuple(readOnlyView(v.games.rewards(), {n, 2}, self),
                                  readOnlyView(v.games.dones(), {n}, self));
          },
          py::arg("actions"),
          "Plays actions[i] in game i (an action index, or at a chance node the outcome value) "
          "and returns (rewards float32[n, 2], dones uint8[n]); a finished game restarts at "
          "once. ValueError names the first bad entry and changes nothing.")
      .def(
          "observations",
          [](const py::object& self) {
            BoundVectorGame& v = bound(self);
            const auto& s = v.games.shape();
            const int n = v.games.size();
            return py::make_tuple(
                readOnlyView(v.games.planes(), {n, s.planes, s.height, s.width}, self),
                readOnlyView(v.games.globals(), {n, s.globals}, self),
                readOnlyView(v.games.masks(), {n, v.games.numActions()}, self),
                readOnlyView(v.games.players(), {n}, self));
          },
          "(planes float32[n, C, H, W], globals float32[n, G], masks uint8[n, A], "
          "players int8[n]: the side to act, -1 at a chance node), without a copy.")
      .def(
          "state",
          [](const BoundVectorGame& v, int i) {
            if (i < 0 || i >= v.games.size()) throw py::index_error("no game " + std::to_string(i));
            const auto lock = holdObject(*v.busy);
            return BoundState(v.game, v.games.state(i));
          },
          py::arg("i"), "A copy of game i's state.")
      .def(
          "episodes",
          [](const BoundVectorGame& v, int i) {
            if (i < 0 || i >= v.games.size()) throw py::index_error("no game " + std::to_string(i));
            const auto lock = holdObject(*v.busy);
            return v.games.episodes(i);
          },
          py::arg("i"), "The games finished in slot i since reset().");

  m.def(
      "derive_seed", [](uint64_t base, uint64_t stream) { return env::deriveSeed(base, stream); },
      py::arg("base"), py::arg("stream"), "The seed of stream `stream` of a run seeded `base`.");
}

}  // namespace morne::python
