#include "python/game_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "env/action.h"
#include "env/agent_actions.h"
#include "env/error.h"
#include "env/io/ascii_map.h"
#include "env/io/notation.h"
#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/rules.h"
#include "python/array_view.h"
#include "python/bound_game.h"

namespace py = pybind11;

namespace morne::python {

namespace {

// OpenSpiel's player ids: a side, or these.
constexpr int kChancePlayer = -1;
constexpr int kTerminalPlayer = -4;

std::mutex scenarios_mutex;
std::map<std::string, std::weak_ptr<BoundScenario>> scenarios_by_text;

int currentPlayer(const env::GameState& s) {
  if (s.isTerminal()) return kTerminalPlayer;
  if (s.isChanceNode()) return kChancePlayer;
  return s.side;
}

std::vector<int> actionIndices(const env::GameState& s, const env::ActionList& list) {
  std::vector<int> out;
  out.reserve(list.size());
  for (const env::Action& a : list) out.push_back(env::actionIndex(s.sc(), a));
  return out;
}

env::ChanceList chanceList(const env::GameState& s) {
  if (!s.isChanceNode()) throw py::value_error("no chance event is pending");
  env::ChanceList out;
  env::chanceOutcomes(s, out);
  return out;
}

py::dict resultDict(const env::GameState& s) {
  const env::GameResult r = env::gameResult(s);
  py::dict d;
  d["vp"] = py::make_tuple(r.vp[0], r.vp[1]);
  d["handicap"] = py::make_tuple(r.handicap_half[0] / 2.0, r.handicap_half[1] / 2.0);
  d["winner"] = r.winner;
  d["level"] = r.level;
  d["level_name"] = env::victoryLevelName(r.level);
  d["terminal"] = s.isTerminal();
  return d;
}

std::shared_ptr<BoundScenario> loadBound(const std::string& name_or_path, const py::object& rules) {
  if (rules.is_none()) return boundScenario(env::loadScenario(name_or_path));
  bool builtin = false;
  for (const env::BuiltinScenario& b : env::builtinScenarios()) builtin |= name_or_path == b.name;
  if (!builtin) {
    throw py::value_error("rules=: applies to a built-in scenario; for \"" + name_or_path +
                          "\" write the switches into the file's \"rules\" block");
  }
  const std::string rules_json =
      py::module_::import("json").attr("dumps")(rules).cast<std::string>();
  nlohmann::json variant = {{"format", std::string(env::kScenarioFormat)},
                            {"variant_of", name_or_path},
                            {"rules", nlohmann::json::parse(rules_json)}};
  return boundScenarioOfText(variant.dump(), name_or_path + " with rules=" + rules_json);
}

// A state of `game` from its JSON text (State.to_json), validated.
BoundState stateOfJson(const std::shared_ptr<BoundScenario>& game, const std::string& text) {
  requireScenario(game, "State.from_json: scenario");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw py::value_error(std::string("state JSON: ") + e.what());
  }
  return BoundState(game, env::stateFromJson(game->scenario(), j, "state JSON"));
}

}  // namespace

env::Action legalAction(const BoundState& b, const py::handle& action) {
  const env::GameState& s = b.state;
  if (s.isTerminal()) throw py::value_error("the game is over: no action applies");
  if (s.isChanceNode()) {
    throw py::value_error("a chance event is pending (" +
                          std::string(env::chanceKindName(s.pending.kind)) +
                          "): apply_chance(value) first");
  }
  env::Action a;
  if (py::isinstance<py::str>(action)) {
    std::string error;
    std::optional<env::Refusal> refusal;
    const auto text = action.cast<std::string>();
    const auto parsed = env::parseActionText(s, text, &error, &refusal);
    if (!parsed) {
      throw py::value_error("action \"" + text + "\": " + (refusal ? refusal->message : error));
    }
    a = *parsed;
  } else if (py::isinstance<py::int_>(action) && !py::isinstance<py::bool_>(action)) {
    const auto index = action.cast<long long>();
    const int size = env::actionSpaceSize(s.sc());
    const auto parsed = index >= 0 && index < size
                            ? env::actionFromIndex(s.sc(), static_cast<int>(index))
                            : std::nullopt;
    if (!parsed) {
      throw py::value_error("action " + std::to_string(index) + ": not an action index of " +
                            s.sc().name() + " (0.." + std::to_string(size - 1) + ")");
    }
    a = *parsed;
  } else {
    throw py::type_error("an action is an int (its index) or a str (its text form), not " +
                         std::string(py::str(action.get_type().attr("__name__"))));
  }
  if (b.legal_of && *b.legal_of == s &&
      std::find(b.legal.begin(), b.legal.end(), a) != b.legal.end()) {
    return a;
  }
  if (const auto refusal = env::explainIllegal(s, a)) {
    throw py::value_error("action " + env::actionText(s, a) + " is not legal: " + refusal->message +
                          (refusal->rule.empty() ? "" : " (" + refusal->rule + ")"));
  }
  return a;
}

const std::shared_ptr<BoundScenario>& requireScenario(
    const std::shared_ptr<BoundScenario>& scenario, const char* where) {
  if (!scenario)
    throw py::type_error(std::string(where) + ": a morne.Scenario is needed, not None");
  return scenario;
}

std::shared_ptr<BoundScenario> boundScenario(std::shared_ptr<const env::Scenario> scenario) {
  std::lock_guard lock(scenarios_mutex);
  std::erase_if(scenarios_by_text, [](const auto& entry) { return entry.second.expired(); });
  auto& slot = scenarios_by_text[scenario->sourceText()];
  if (auto existing = slot.lock()) return existing;
  auto made = std::make_shared<BoundScenario>(std::move(scenario));
  slot = made;
  return made;
}

std::shared_ptr<BoundScenario> boundScenarioOfText(const std::string& text,
                                                   const std::string& source) {
  {
    std::lock_guard lock(scenarios_mutex);
    const auto it = scenarios_by_text.find(text);
    if (it != scenarios_by_text.end()) {
      if (auto existing = it->second.lock()) return existing;
    }
  }
  return boundScenario(env::parseScenario(text, source));
}

void bindGame(py::module_& m) {
  m.attr("BLUE") = 0;
  m.attr("ORANGE") = 1;
  m.attr("CHANCE") = kChancePlayer;
  m.attr("TERMINAL") = kTerminalPlayer;
  m.attr("ENCODER_VERSION") = nn::kEncoderVersion;

  py::class_<env::Rng>(m, "Rng", "The engine's seeded random numbers (xoshiro256**).")
      .def(py::init<uint64_t>(), py::arg("seed"))
      .def("below", &env::Rng::below, py::arg("n"), "A uniform integer in [0, n); n > 0.")
      .def("uniform", &env::Rng::uniform, "A uniform float in [0, 1).")
      .def("next", &env::Rng::next, "The next 64 random bits.");

  py::class_<BoundScenario, std::shared_ptr<BoundScenario>> scenario(
      m, "Scenario",
      "A scenario: the map, the units, the rule switches; load_scenario() makes one.");
  scenario.def_property_readonly("name", [](const BoundScenario& b) { return b.scenario().name(); })
      .def_property_readonly("title", [](const BoundScenario& b) { return b.scenario().title(); })
      .def_property_readonly("width", [](const BoundScenario& b) { return b.scenario().width(); })
      .def_property_readonly("height", [](const BoundScenario& b) { return b.scenario().height(); })
      .def_property_readonly("turns", [](const BoundScenario& b) { return b.scenario().turns(); })
      .def_property_readonly("num_cells",
                             [](const BoundScenario& b) { return b.scenario().numCells(); })
      .def_property_readonly("num_units",
                             [](const BoundScenario& b) { return b.scenario().numUnits(); })
      .def_property_readonly("side_names",
                             [](const BoundScenario& b) { return b.scenario().sideNames(); })
      .def_property_readonly(
          "rules",
          [](const BoundScenario& b) {
            return py::module_::import("json").attr("loads")(
                env::ruleSwitchesJson(b.scenario().rules()));
          },
          "Every rule switch and its value.")
      .def_property_readonly(
          "num_distinct_actions",
          [](const BoundScenario& b) { return env::actionSpaceSize(b.scenario()); },
          "Size of the flat action space: action planes x hexes + 2 (end, hold).")
      .def_property_readonly(
          "observation_shape",
          [](const BoundScenario& b) {
            const auto shape = b.encoder().shape();
            return py::make_tuple(shape.planes, shape.height, shape.width);
          },
          "(planes, height, width) of State.observation()'s first array.")
      .def_property_readonly("globals_size",
                             [](const BoundScenario& b) { return b.encoder().shape().globals; })
      .def_property_readonly("plane_names",
                             [](const BoundScenario&) {
                               std::vector<std::string> names;
                               for (auto n : nn::ObservationEncoder::planeNames())
                                 names.emplace_back(n);
                               return names;
                             })
      .def_property_readonly("global_names",
                             [](const BoundScenario&) {
                               std::vector<std::string> names;
                               for (auto n : nn::ObservationEncoder::globalNames())
                                 names.emplace_back(n);
                               return names;
                             })
      .def(
          "action_location",
          [](const BoundScenario& b, int action) -> py::object {
            const env::Scenario& sc = b.scenario();
            if (action < 0 || action >= env::actionSpaceSize(sc)) {
              throw py::value_error("action " + std::to_string(action) + ": out of range");
            }
            const int cells = sc.numCells();
            if (action >= env::actionPlanes(sc) * cells) return py::none();
            const int grid = b.encoder().gridIndex(static_cast<env::CellId>(action % cells));
            const int width = b.encoder().shape().width;
            return py::make_tuple(action / cells, grid / width, grid % width);
          },
          py::arg("action"),
          "(plane, row, column) of an action in the observation's grid; None for end and hold.")
      .def(
          "action_index",
          [](const BoundScenario& b, int plane, int row, int column) {
            const env::Scenario& sc = b.scenario();
            const int width = b.encoder().shape().width;
            if (plane >= 0 && plane < env::actionPlanes(sc) && row >= 0 && column >= 0 &&
                column < width) {
              for (int c = 0; c < sc.numCells(); ++c) {
                if (b.encoder().gridIndex(static_cast<env::CellId>(c)) == row * width + column) {
                  return plane * sc.numCells() + c;
                }
              }
            }
            throw py::value_error("no action at plane " + std::to_string(plane) + ", row " +
                                  std::to_string(row) + ", column " + std::to_string(column) +
                                  " of " + sc.name() + " (off the map or out of range)");
          },
          py::arg("plane"), py::arg("row"), py::arg("column"),
          "The action at (plane, row, column) of the grid: action_location's inverse.")
      .def(
          "new_game",
          [](const std::shared_ptr<BoundScenario>& b) {
            return BoundState(b, env::newGame(requireScenario(b, "Scenario.new_game")->scenario()));
          },
          "The scenario's initial state. The game has no dice of its own: chance outcomes are "
          "applied by the caller (State.sample_chance with a seeded Rng draws them).")
      .def("state_from_json", &stateOfJson, py::arg("text"),
           "A state from State.to_json(), validated.")
      .def(
          "to_json", [](const BoundScenario& b) { return b.scenario().sourceText(); },
          "The scenario's document (morne-scenario/1).")
      .def("__repr__",
           [](const BoundScenario& b) { return "<morne.Scenario " + b.scenario().name() + ">"; })
      .def(py::pickle(
          [](const BoundScenario& b) { return py::make_tuple(b.scenario().sourceText()); },
          [](const py::tuple& t) {
            return boundScenarioOfText(t[0].cast<std::string>(), "pickled scenario");
          }));

  py::class_<BoundState>(m, "State", "One position of a game; Scenario.new_game() makes one.")
      .def(
          "current_player", [](const BoundState& b) { return currentPlayer(b.state); },
          "BLUE (0) or ORANGE (1) to act, CHANCE (-1) at a pending die, TERMINAL (-4) at the end.")
      .def("is_chance_node", [](const BoundState& b) { return b.state.isChanceNode(); })
      .def("is_terminal", [](const BoundState& b) { return b.state.isTerminal(); })
      .def_property_readonly("turn", [](const BoundState& b) { return b.state.turn; })
      .def_property_readonly(
          "side", [](const BoundState& b) { return b.state.side; },
          "The phasing side (0 blue, 1 orange).")
      .def_property_readonly("phase",
                             [](const BoundState& b) { return env::phaseName(b.state.phase); })
      .def_property_readonly(
          "hash", [](const BoundState& b) { return b.state.hash; },
          "The Zobrist hash of the position.")
      .def_property_readonly("scenario", [](const BoundState& b) { return b.game; })
      .def(
          "legal_actions",
          [](BoundState& b) {
            env::ActionList list;
            {
              py::gil_scoped_release release;
              env::legalActions(b.state, list);
              b.legal.assign(list.begin(), list.end());
              b.legal_of = b.state;
            }
            return actionIndices(b.state, list);
          },
          "The legal actions' indices in the engine's canonical order (by kind, hex, "
          "argument); empty at chance nodes and at the end.")
      .def(
          "agent_actions",
          [](const BoundState& b, bool prune) {
            env::ActionList list;
            {
              py::gil_scoped_release release;
              env::agentActions(b.state, list, prune);
            }
            return actionIndices(b.state, list);
          },
          py::arg("prune") = true,
          "The legal actions less the steps back into a hex just left (what morne's agents "
          "choose among); prune=False gives every legal action.")
      .def(
          "legal_actions_mask",
          [](const BoundState& b) {
            const int size = env::actionSpaceSize(b.state.sc());
            py::array_t<uint8_t> mask(size);
            uint8_t* out = mask.mutable_data();
            {
              py::gil_scoped_release release;
              std::fill(out, out + size, uint8_t{0});
              env::ActionList list;
              env::legalActions(b.state, list);
              for (const env::Action& a : list) out[env::actionIndex(b.state.sc(), a)] = 1;
            }
            return mask;
          },
          "A uint8 array of num_distinct_actions: 1 where the action is legal.")
      .def(
          "chance_outcomes",
          [](const BoundState& b) {
            std::vector<std::pair<int, double>> out;
            for (const auto& o : chanceList(b.state)) out.emplace_back(o.value, o.probability());
            return out;
          },
          "[(value, probability)] of the pending die; ValueError when none is pending.")
      .def(
          "chance_outcomes_exact",
          [](const BoundState& b) {
            const py::object fraction = py::module_::import("fractions").attr("Fraction");
            py::list out;
            for (const auto& o : chanceList(b.state)) {
              out.append(py::make_tuple(o.value, fraction(o.num, o.den)));
            }
            return out;
          },
          "[(value, fractions.Fraction)]: the exact probabilities, which sum to 1.")
      .def(
          "apply",
          [](BoundState& b, const py::handle& action) {
            const env::Action a = legalAction(b, action);
            py::gil_scoped_release release;
            env::applyAction(b.state, a);
          },
          py::arg("action"),
          "Plays a legal action, given by index or text; ValueError says why one is not legal.")
      .def(
          "apply_chance",
          [](BoundState& b, int value) {
            bool found = false;
            for (const auto& o : chanceList(b.state)) found |= o.value == value;
            if (!found) {
              throw py::value_error("chance outcome " + std::to_string(value) + " is not one of " +
                                    std::string(env::chanceKindName(b.state.pending.kind)) +
                                    "'s outcomes");
            }
            py::gil_scoped_release release;
            env::applyChance(b.state, value);
          },
          py::arg("value"), "Applies an outcome of the pending die.")
      .def(
          "sample_chance",
          [](const BoundState& b, env::Rng& rng) {
            chanceList(b.state);
            return env::sampleChance(b.state, rng);
          },
          py::arg("rng"), "Draws an outcome of the pending die with its exact probability.")
      .def(
          "play_random_ply",
          [](BoundState& b, env::Rng& rng) {
            if (b.state.isTerminal()) throw py::value_error("the game is over");
            py::gil_scoped_release release;
            env::ActionList scratch;
            env::playRandomPly(b.state, rng, scratch);
          },
          py::arg("rng"),
          "One ply in C++: a die drawn at a chance node, else a uniform legal action "
          "(legal_actions()[rng.below(n)]).")
      .def(
          "returns",
          [](const BoundState& b) {
            const env::GameResult r = env::gameResult(b.state);
            if (!b.state.isTerminal() || r.winner == env::kNoSide) return std::vector{0.0, 0.0};
            return r.winner == 0 ? std::vector{1.0, -1.0} : std::vector{-1.0, 1.0};
          },
          "[blue, orange]: +1 for the winner, -1 for the loser, 0 on a draw or before the end.")
      .def(
          "result", [](const BoundState& b) { return resultDict(b.state); },
          "Victory points, the scenario's handicap (blue, orange), winner (-1: none), victory "
          "level; final once the game is over.")
      .def(
          "observation",
          [](const py::object& self, const py::object& player) {
            BoundState& b = self.cast<BoundState&>();
            if (!player.is_none() && player.cast<int>() != b.state.side) {
              throw py::value_error(
                  "observation(player): the encoder sees the position from "
                  "the phasing side, " +
                  std::to_string(b.state.side));
            }
            const nn::ObservationShape shape = b.game->encoder().shape();
            if (b.planes.empty()) {
              b.planes.resize(static_cast<size_t>(shape.planeSize()));
              b.globals.resize(static_cast<size_t>(shape.globals));
            }
            {
              py::gil_scoped_release release;
              b.game->encoder().encode(b.state, b.planes, b.globals);
            }
            return py::make_tuple(
                readOnlyView(b.planes, {shape.planes, shape.height, shape.width}, self),
                readOnlyView(b.globals, {shape.globals}, self));
          },
          py::arg("player") = py::none(),
          "(planes float32[C, H, W], globals float32[G]) seen by the phasing side: read-only "
          "views of this state's own buffer, without a copy. The next observation() of this "
          "state rewrites them; numpy.array(...) keeps a copy.")
      .def(
          "action_to_string",
          [](const BoundState& b, int action) {
            const auto a = env::actionFromIndex(b.state.sc(), action);
            if (!a) throw py::value_error("action " + std::to_string(action) + ": out of range");
            return env::actionText(b.state, *a);
          },
          py::arg("action"))
      .def(
          "string_to_action",
          [](const BoundState& b, const std::string& text) {
            std::string error;
            std::optional<env::Refusal> refusal;
            const auto a = env::parseActionText(b.state, text, &error, &refusal);
            if (!a) {
              throw py::value_error("action \"" + text +
                                    "\": " + (refusal ? refusal->message : error));
            }
            return env::actionIndex(b.state.sc(), *a);
          },
          py::arg("text"), "The index of an action's text form (legal or not).")
      .def("clone", &BoundState::clone, "A copy (the flat game state; no observation buffer).")
      .def("__copy__", &BoundState::clone)
      .def("__deepcopy__", [](const BoundState& b, const py::dict&) { return b.clone(); })
      .def_static("from_json", &stateOfJson, py::arg("scenario"), py::arg("text"),
                  "The same as Scenario.state_from_json(text).")
      .def(
          "to_json", [](const BoundState& b) { return env::stateToJson(b.state).dump(); },
          "The state's JSON (morne-state/1); Scenario.state_from_json reads it back.")
      .def("__eq__", [](const BoundState& a,
                        const BoundState& b) { return a.game == b.game && a.state == b.state; })
      .def("__hash__", [](const BoundState& b) { return b.state.hash; })
      .def("__str__", [](const BoundState& b) { return env::renderMap(b.state); })
      .def("__repr__",
           [](const BoundState& b) {
             return "<morne.State " + b.state.sc().name() + " turn " +
                    std::to_string(b.state.turn) + " " +
                    std::string(env::phaseName(b.state.phase)) + ", side " +
                    std::to_string(b.state.side) + ">";
           })
      .def(py::pickle(
          [](const BoundState& b) {
            return py::make_tuple(b.state.sc().sourceText(), env::stateToJson(b.state).dump());
          },
          [](const py::tuple& t) {
            auto game = boundScenarioOfText(t[0].cast<std::string>(), "pickled state");
            const auto j = nlohmann::json::parse(t[1].cast<std::string>());
            return BoundState(game, env::stateFromJson(game->scenario(), j, "pickled state"));
          }));

  m.def(
      "load_scenario",
      [](const std::string& name_or_path, const py::object& rules) {
        return loadBound(name_or_path, rules);
      },
      py::arg("name_or_path") = std::string(env::kDefaultScenario), py::arg("rules") = py::none(),
      "A built-in scenario by name (crossing, duel, pyramids, ...) or a scenario file; "
      "rules={switch: value} changes a built-in scenario's rule switches (docs/variants.md).");
  m.def(
      "scenario_from_json",
      [](const std::string& text) { return boundScenarioOfText(text, "scenario JSON"); },
      py::arg("text"),
      "A scenario from its document (Scenario.to_json(), or the \"json\" of an engine "
      "protocol load request), validated.");
  m.def("builtin_scenarios", [] {
    std::vector<std::string> names;
    for (const env::BuiltinScenario& b : env::builtinScenarios()) names.emplace_back(b.name);
    return names;
  });
}

}  // namespace morne::python
