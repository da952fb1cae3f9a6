#include "python/query_bindings.h"

#include <nlohmann/json.hpp>
#include <string>

#include "engine/position_queries.h"
#include "python/bound_game.h"

namespace py = pybind11;

namespace morne::python {

namespace {

// One question: the method's name, the engine's answer, and what it takes and tells.
struct Query {
  const char* name;
  engine::PositionQuery answer;
  const char* help;
};

constexpr Query kQueries[] = {
    {"reachable", &engine::reachableReply,
     "reachable(unit=ID or hex): every hex the unit can reach this movement phase (or the "
     "next), with its cost and path."},
    {"zone_of_control", &engine::zoneOfControlReply,
     "zone_of_control(): the hexes each side's units control."},
    {"line_of_sight", &engine::lineOfSightReply,
     "line_of_sight(**{'from': hex, 'to': hex}): whether the two hexes see each other, and "
     "what blocks the line."},
    {"preview_fire", &engine::previewFireReply,
     "preview_fire(gun=ID or hex, target=ID or hex): the fire's factors and the exact "
     "distribution of its results."},
    {"preview_combat", &engine::previewCombatReply,
     "preview_combat(attacker=..., defender=...): the combat's factors, morale tests and the "
     "exact distribution of its results."},
    {"preview_step", &engine::previewStepReply,
     "preview_step(text='move 0707>0706'): the step's cost, stop, marsh test, charge offered, "
     "reaction fire and the exact distribution of the unit's state after it."},
};

}  // namespace

void bindQueries(py::module_& m) {
  py::class_<BoundState> state = m.attr("State");
  const py::module_ json = py::module_::import("json");
  for (const Query& q : kQueries) {
    state.def(
        q.name,
        [answer = q.answer, json](const BoundState& b, const py::kwargs& request) {
          const auto text = json.attr("dumps")(request).cast<std::string>();
          nlohmann::json reply;
          {
            py::gil_scoped_release release;
            reply = answer(b.state, nlohmann::json::parse(text));
          }
          return json.attr("loads")(reply.dump());
        },
        q.help);
  }
}

}  // namespace morne::python
