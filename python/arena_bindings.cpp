#include "python/arena_bindings.h"

#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_kinds.h"
#include "arena/arena_run.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "python/bound_game.h"
#include "python/game_bindings.h"
#include "python/signal_wait.h"

namespace py = pybind11;

namespace morne::python {

namespace {

// An agent written in Python: an object with decide(state) -> action (index or text), called
// with the GIL held; the games around it run in parallel.
class PythonAgent : public agents::Agent {
 public:
  PythonAgent(py::object decider, std::string spec,
              const std::vector<std::shared_ptr<BoundScenario>>& games)
      : decider_(std::move(decider)), spec_(std::move(spec)), games_(games) {}
  ~PythonAgent() override {
    py::gil_scoped_acquire gil;
    decider_ = py::object();
  }

  agents::Decision decide(const env::GameState& s) override {
    py::gil_scoped_acquire gil;
    for (const auto& game : games_) {
      if (&game->scenario() != s.scenario) continue;
      const BoundState state(game, s);
      const py::object chosen = decider_.attr("decide")(state);
      agents::Decision d;
      try {
        d.action = legalAction(state, chosen);
      } catch (const std::exception& e) {  // ValueError, TypeError
        throw ConfigError(spec_ + ".decide: " + e.what());
      }
      return d;
    }
    throw InternalError(spec_ + ": a state of a scenario the arena does not play");
  }
  std::string spec() const override { return spec_; }

 private:
  py::object decider_;
  std::string spec_;
  const std::vector<std::shared_ptr<BoundScenario>>& games_;
};

}  // namespace

void bindArena(py::module_& m) {
  m.def(
      "_arena",
      [](const std::vector<std::string>& specs, const std::vector<py::object>& makers,
         const std::vector<std::string>& scenario_names, int rounds, uint64_t seed, int jobs,
         const std::string& out, bool records, bool replace, const py::object& progress) {
        if (specs.size() < 2) throw py::value_error("arena: at least two agents");
        if (rounds < 1) throw py::value_error("arena: rounds must be at least 1");
        if (jobs < 1) throw py::value_error("arena: jobs must be at least 1");
        if (scenario_names.empty()) throw py::value_error("arena: no scenario");
        arena::ArenaRequest request;
        request.given.run = {specs, scenario_names, rounds, seed, records};
        request.out = out;
        request.use = replace ? arena::FolderUse::kReplace : arena::FolderUse::kNew;
        request.jobs = jobs;
        std::vector<std::shared_ptr<BoundScenario>> games;
        for (const std::string& name : scenario_names) {
          games.push_back(boundScenario(env::loadScenario(name)));
          request.scenarios.push_back(games.back()->shared());
        }
        // A Python agent: makers[i] (a class or a function of the seed, or the object itself
        // when it has decide) makes one per game; the others are built-in specs.
        request.make_agent = [&](int i, uint64_t agent_seed) -> std::unique_ptr<agents::Agent> {
          const auto index = static_cast<size_t>(i);
          if (makers[index].is_none()) return agents::makeAgent(specs[index], agent_seed);
          py::gil_scoped_acquire gil;
          py::object decider = makers[index];
          if (py::isinstance<py::type>(decider) || !py::hasattr(decider, "decide")) {
            decider = decider(agent_seed);
          }
          if (!py::hasattr(decider, "decide")) {
            throw ConfigError(specs[index] + ": makes an object without decide(state)");
          }
          return std::make_unique<PythonAgent>(decider, specs[index], games);
        };
        // The progress callback, under the GIL.
        class Progress : public arena::ArenaObserver {
         public:
          explicit Progress(const py::object& call) : call_(call) {}
          void finished(const arena::ArenaRun& run, const arena::ArenaGame&,
                        int finished) override {
            if (call_.is_none()) return;
            py::gil_scoped_acquire gil;
            call_(finished, static_cast<int>(run.games.size()));
          }

         private:
          const py::object& call_;
        } observer(progress);
        // The run goes on its own thread (python/signal_wait.h): Ctrl-C stops it (the games in
        // progress stay unplayed) with the reports of the finished ones written, as in
        // `morne arena`.
        std::atomic<bool> stop = false;
        auto running = std::async(std::launch::async,
                                  [&] { return arena::playArenaRun(request, observer, &stop); });
        std::optional<py::error_already_set> interrupted = waitSeeingSignals(running, stop);
        arena::ArenaRun run;
        {
          py::gil_scoped_release release;
          run = running.get();  // rethrows what the run threw
        }
        if (interrupted) throw std::move(*interrupted);
        if (!run.errors.empty()) {
          std::string text = std::to_string(run.errors.size()) +
                             " game(s) ended with an error and stay unplayed (the reports cover "
                             "the others):";
          for (const std::string& line : run.errors) text += "\n  " + line;
          throw IoError(text);
        }
        return run.played;
      },
      py::arg("specs"), py::arg("makers"), py::arg("scenarios"), py::arg("rounds"), py::arg("seed"),
      py::arg("jobs"), py::arg("out"), py::arg("records"), py::arg("replace"), py::arg("progress"),
      "The arena of morne.arena() (its Python wrapper checks and names the agents).");
}

}  // namespace morne::python
