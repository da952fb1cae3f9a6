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
#include "arena/arena.h"
#include "arena/arena_folder.h"
#include "arena/stats.h"
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
        arena::ArenaConfig config;
        config.agents = specs;
        std::vector<std::shared_ptr<BoundScenario>> games;
        for (const std::string& name : scenario_names) {
          games.push_back(boundScenario(env::loadScenario(name)));
          config.scenarios.push_back(games.back()->shared());
        }
        config.rounds = rounds;
        config.seed = seed;
        config.jobs = jobs;
        config.keep_plies = records;
        // A Python agent: makers[i] (a class or a function of the seed, or the object itself
        // when it has decide) makes one per game; the others are built-in specs.
        config.make_agent = [&](int i, uint64_t agent_seed) -> std::unique_ptr<agents::Agent> {
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
        const arena::ArenaRunFile run{specs, scenario_names, rounds, seed, records};
        const arena::ArenaLineup lineup = arena::lineupOf(config);
        std::vector<arena::ArenaGame> schedule = arena::scheduleArena(config);
        arena::ArenaFolder folder(out, run,
                                  replace ? arena::FolderUse::kReplace : arena::FolderUse::kNew,
                                  lineup, schedule);
        // The games run on their own thread (python/signal_wait.h): Ctrl-C stops the run (the
        // games in progress stay unplayed) with the reports of the finished ones written, as in
        // `morne arena`.
        std::atomic<bool> stop = false;
        auto running = std::async(std::launch::async, [&] {
          arena::runArena(
              config, schedule,
              [&](const arena::ArenaGame& g, int finished) {
                folder.addGame(config, g);
                if (progress.is_none()) return;
                py::gil_scoped_acquire gil;
                progress(finished, static_cast<int>(schedule.size()));
              },
              &stop);
        });
        std::optional<py::error_already_set> interrupted = waitSeeingSignals(running, stop);
        {
          py::gil_scoped_release release;
          running.get();  // rethrows what the games threw
        }
        folder.finish(arena::arenaScopes(lineup, schedule));
        if (interrupted) throw std::move(*interrupted);
        const std::vector<std::string> errors = arena::arenaErrors(config, schedule);
        if (!errors.empty()) {
          std::string text = std::to_string(errors.size()) +
                             " game(s) ended with an error and stay unplayed (the reports cover "
                             "the others):";
          for (const std::string& line : errors) text += "\n  " + line;
          throw IoError(text);
        }
        int played = 0;
        for (const arena::ArenaGame& g : schedule) played += g.played;
        return played;
      },
      py::arg("specs"), py::arg("makers"), py::arg("scenarios"), py::arg("rounds"), py::arg("seed"),
      py::arg("jobs"), py::arg("out"), py::arg("records"), py::arg("replace"), py::arg("progress"),
      "The arena of morne.arena() (its Python wrapper checks and names the agents).");
}

}  // namespace morne::python
