#include "cli/arena_printer.h"

#include <iostream>
#include <map>
#include <utility>

#include "arena/report.h"
#include "core/version.h"

namespace morne::cli {

namespace {

// The time the games left will take: each game's scenario's mean time per game so far (the
// mean of all games for a scenario not seen yet), over the games played at once.
double etaSeconds(const std::vector<arena::ArenaGame>& games, int jobs) {
  std::map<int, std::pair<double, int>> per_scenario;  // seconds, games
  double all = 0;
  int played = 0;
  for (const arena::ArenaGame& g : games) {
    if (!g.played || g.seconds <= 0) continue;
    auto& [seconds, count] = per_scenario[g.scenario];
    seconds += g.seconds;
    ++count;
    all += g.seconds;
    ++played;
  }
  if (played == 0) return -1;
  double left = 0;
  for (const arena::ArenaGame& g : games) {
    if (g.played) continue;
    const auto it = per_scenario.find(g.scenario);
    left += it != per_scenario.end() ? it->second.first / it->second.second : all / played;
  }
  return left / jobs;
}

}  // namespace

void ArenaPrinter::started(const arena::ArenaRun& run) {
  const arena::ArenaConfig& config = run.config;
  std::cout << core::versionLine() << "\narena: " << config.agents.size() << " agents, "
            << config.scenarios.size() << " scenario(s), " << config.rounds
            << " rounds: " << run.games.size() << " games, " << config.jobs << " at a time, seed "
            << config.seed;
  if (resume_) std::cout << "; resuming with " << run.resumed << " games already played";
  std::cout << "\n";
  progress_.emplace(static_cast<int>(run.games.size()), "games", !quiet_);
  progress_->update(run.resumed);
}

void ArenaPrinter::finished(const arena::ArenaRun& run, const arena::ArenaGame&, int finished) {
  progress_->update(finished, "", etaSeconds(run.games, run.config.jobs));
}

int ArenaPrinter::summarise(const arena::ArenaRun& run, const std::string& out_dir) const {
  for (const std::string& line : run.errors) std::cerr << "morne: arena: " << line << "\n";
  const std::string resume_line = "`morne arena --resume --out " + out_dir + "`";
  if (!run.errors.empty()) {
    std::cout << run.errors.size() << " game(s) ended with an error (above) and stay unplayed"
              << (out_dir.empty() ? "" : "; " + resume_line + " tries them again") << "\n";
  }
  if (run.interrupted) {
    std::cout << "interrupted: " << run.played << " of " << run.games.size()
              << " games finished; the tables and reports below cover them"
              << (out_dir.empty() ? "" : "; " + resume_line + " plays the rest") << "\n";
  }
  for (const arena::ArenaStats& st : run.scopes) arena::printArenaStats(std::cout, run.lineup, st);
  if (!out_dir.empty()) {
    std::cout << "reports: " << out_dir
              << "/{games.csv,run.json,ratings.csv,pairs.csv,summary.json,elo.svg}\n";
  }
  return run.interrupted ? 130 : run.errors.empty() ? 0 : 1;
}

}  // namespace morne::cli
