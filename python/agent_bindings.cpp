#include "python/agent_bindings.h"

#include <pybind11/stl.h>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "agents/agent_kinds.h"
#include "agents/model_library.h"
#include "agents/network_agent.h"
#include "env/action.h"
#include "env/io/notation.h"
#include "env/rules.h"
#include "env/types.h"
#include "python/bound_game.h"
#include "python/object_lock.h"
#include "python/signal_wait.h"
#include "training/network_loader.h"

namespace py = pybind11;

namespace morne::python {

namespace {

// A built-in agent (morne.Agent).
struct BoundAgent {
  std::unique_ptr<agents::Agent> agent;
  std::unique_ptr<std::mutex> busy = std::make_unique<std::mutex>();  // one decision at a time
};

const env::GameState& decisionState(const BoundState& b) {
  if (b.state.isTerminal()) throw py::value_error("the game is over: there is nothing to decide");
  if (b.state.isChanceNode()) {
    throw py::value_error("a chance event is pending (" +
                          std::string(env::chanceKindName(b.state.pending.kind)) +
                          "): agents decide at decision nodes only");
  }
  return b.state;
}

// The agent's decision in a copy of `b`'s position. The search runs on a thread of its own
// (python/signal_wait.h): Ctrl-C stops it (setStopFlag) and raises KeyboardInterrupt once it
// has returned.
agents::Decision decide(BoundAgent& a, const BoundState& b) {
  const env::GameState s = decisionState(b);
  const auto lock = holdObject(*a.busy);
  std::atomic<bool> stop = false;
  struct StopFlag {
    agents::Agent& agent;
    ~StopFlag() { agent.setStopFlag(nullptr); }
  } flag{*a.agent};
  a.agent->setStopFlag(&stop);
  auto running = std::async(std::launch::async, [&] { return a.agent->decide(s); });
  std::optional<py::error_already_set> interrupted = waitSeeingSignals(running, stop);
  agents::Decision d;
  {
    py::gil_scoped_release release;
    d = running.get();  // rethrows what the search threw
  }
  if (interrupted) throw std::move(*interrupted);
  return d;
}

py::list lineOf(const env::GameState& root, const std::vector<agents::Ply>& line) {
  py::list out;
  env::GameState s = root;
  for (const agents::Ply& step : line) {
    if (step.chance) {
      py::dict die;
      die["chance"] = std::string(env::chanceKindName(s.pending.kind));
      die["outcome"] = step.outcome;
      out.append(die);
      env::applyChance(s, step.outcome);
    } else {
      out.append(env::actionText(s, step.action));
      env::applyAction(s, step.action);
    }
  }
  return out;
}

// The decision and the search behind it, as the protocol's genmove shows them.
py::dict analysisOf(const env::GameState& s, const agents::Decision& d) {
  const env::Scenario& sc = s.sc();
  py::list children;
  for (const mcts::RootChild& c : d.info.children) {
    py::dict child;
    child["action"] = env::actionIndex(sc, c.action);
    child["text"] = env::actionText(s, c.action);
    child["visits"] = c.visits;
    child["value"] = c.value;
    child["prior"] = c.prior;
    child["policy"] = c.policy;
    children.append(child);
  }
  py::dict out;
  out["action"] = env::actionIndex(sc, d.action);
  out["text"] = env::actionText(s, d.action);
  out["value"] = d.info.root_value;
  out["simulations"] = d.info.simulations;
  out["seconds"] = d.info.seconds;
  out["nodes"] = d.info.nodes;
  out["sampled"] = d.info.sampled;
  out["children"] = children;
  out["pv"] = lineOf(s, d.info.principal_variation);
  return out;
}

}  // namespace

void bindAgents(py::module_& m) {
  // "az" specs load their networks through LibTorch, loaded then (nn/torch_library.h).
  agents::setNetworkLoader(training::loadNetworkEvaluator);
  py::class_<BoundAgent>(m, "Agent",
                         "A built-in agent made from its spec (\"rule\", \"mcts:sims=300\", "
                         "\"az:model=crossing\"): the specs of `morne arena` and the protocol.")
      .def(py::init([](const std::string& spec, uint64_t seed) {
             return BoundAgent{agents::makeAgent(spec, seed)};
           }),
           py::arg("spec"), py::arg("seed") = 0,
           "ValueError names an unknown kind or parameter, and what is accepted.")
      .def_property_readonly("spec", [](const BoundAgent& a) { return a.agent->spec(); })
      .def(
          "decide",
          [](BoundAgent& a, const BoundState& b) {
            return env::actionIndex(b.state.sc(), decide(a, b).action);
          },
          py::arg("state"), "The index of the action the agent plays in `state`.")
      .def(
          "analyse",
          [](BoundAgent& a, const BoundState& b) { return analysisOf(b.state, decide(a, b)); },
          py::arg("state"),
          "The decision with its search: action, text, value (for the side to move), "
          "simulations, seconds, nodes, children [{action, text, visits, value, prior, "
          "policy}] and the principal variation.")
      .def("__repr__", [](const BoundAgent& a) { return "<morne.Agent " + a.agent->spec() + ">"; });

  m.def("_add_model_folder", &agents::addModelFolder, py::arg("folder"),
        "Adds a folder of shipped models (az:model=NAME); called by morne itself.");
  m.def("agent_catalog", &agents::agentCatalog,
        "The agent kinds with their parameters, defaults and help.");
}

}  // namespace morne::python
