#include "arena/arena_run.h"

#include <optional>

#include "env/error.h"
#include "env/io/scenario_library.h"

namespace morne::arena {

namespace {

// The request checked and made into the run's configuration; throws ConfigError.
ArenaConfig configOf(const ArenaRequest& request, const ArenaRunFile& run) {
  const std::string& what = request.what;
  ArenaConfig config;
  config.agents = run.agents;
  if (config.agents.size() < 2)
    throw ConfigError(what + ": --agents needs at least two agent specs");
  if (!request.scenarios.empty() && request.scenarios.size() != run.scenarios.size())
    throw InternalError(what + ": the scenarios loaded are not those of the run");
  for (size_t i = 0; i < run.scenarios.size(); ++i) {
    config.scenarios.push_back(request.scenarios.empty() ? env::loadScenario(run.scenarios[i])
                                                         : request.scenarios[i]);
  }
  if (config.scenarios.empty()) throw ConfigError(what + ": --scenarios names no scenario");
  config.rounds = run.rounds;
  if (config.rounds < 1) throw ConfigError(what + ": --rounds must be at least 1");
  config.seed = run.seed;
  config.jobs = request.jobs;
  if (config.jobs < 1) throw ConfigError(what + ": --jobs must be at least 1");
  config.keep_plies = run.records;
  if (config.keep_plies && request.out.empty())
    throw ConfigError(what + ": --records writes into the --out folder; give one");
  config.make_agent = request.make_agent;
  return config;
}

}  // namespace

ArenaRun playArenaRun(const ArenaRequest& request, ArenaObserver& observer,
                      const std::atomic<bool>* stop) {
  ArenaRun run;
  if (request.use == FolderUse::kResume && request.out.empty())
    throw ConfigError(request.what + ": --resume needs the run's --out folder");
  run.file = request.use == FolderUse::kResume ? resumedRun(request.out, request.given)
                                               : request.given.run;
  run.config = configOf(request, run.file);
  checkArenaAgents(run.config);  // before any file is written
  run.lineup = lineupOf(run.config);
  for (ArenaGame& g : scheduleArena(run.config))
    if (!request.plays || request.plays(g)) run.games.push_back(std::move(g));

  std::optional<ArenaFolder> folder;
  if (!request.out.empty())
    folder.emplace(request.out, run.file, request.use, run.lineup, run.games);
  run.resumed = folder ? folder->resumed() : 0;
  observer.started(run);
  runArena(
      run.config, run.games,
      [&](const ArenaGame& g, int finished) {
        if (folder) folder->addGame(run.config, g);
        observer.finished(run, g, finished);
      },
      stop);

  for (const ArenaGame& g : run.games) run.played += g.played;
  run.errors = arenaErrors(run.config, run.games);
  run.interrupted =
      run.played + static_cast<int>(run.errors.size()) < static_cast<int>(run.games.size());
  run.scopes = arenaScopes(run.lineup, run.games);
  if (folder) folder->finish(run.scopes);
  return run;
}

}  // namespace morne::arena
