#include "loop/joint_ladder.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "agents/agent_spec.h"
#include "core/line_chart.h"
#include "core/number_text.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "loop/generation_record.h"

namespace morne::loop {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<int> trainedGenerations(const RunFolder& folder) {
  std::vector<int> out;
  for (int g = 1; fs::exists(folder.path("nets/candidate-" + generationName(g) + ".pt")); ++g)
    out.push_back(g);
  return out;
}

std::vector<LadderEntrant> ladderEntrants(const RunFolder& folder,
                                          const std::vector<int>& generations) {
  std::vector<LadderEntrant> out;
  for (int g : generations) {
    if (g < 1)
      throw ConfigError("loop ladder: generation " + std::to_string(g) +
                        " has no network (the first is 1)");
    LadderEntrant e;
    e.generation = g;
    e.network = folder.path("nets/candidate-" + generationName(g) + ".pt");
    if (!fs::exists(e.network))
      throw ConfigError("loop ladder: generation " + std::to_string(g) + " has no network yet (" +
                        e.network + ")");
    if (const std::optional<TrainRecord> train = readTrainRecord(folder, g))
      e.cpu_hours = train->cpu_hours;
    out.push_back(e);
  }
  return out;
}

std::string writeLadderProgress(const std::string& out_dir,
                                const std::vector<LadderEntrant>& entrants, int references) {
  const json summary = readJsonFile(out_dir + "/summary.json", json());
  if (!summary.is_object() || !summary.contains("scopes") || summary["scopes"].empty())
    throw ConfigError(out_dir + "/summary.json: no ratings (the ladder's games are not played)");
  const json& scope = summary["scopes"].back();
  const json& agents = scope.at("agents");
  if (agents.size() != static_cast<size_t>(references) + entrants.size())
    throw ConfigError(out_dir + "/summary.json: its agents are not this ladder's");
  const std::string anchor = agents.at(0).at("spec");
  json rows = json::array();
  core::ChartSeries by_gen{"Elo of the generation's network", {}, "#1f77b4", false};
  core::ChartSeries low{"95% interval", {}, "#7f7f7f", true}, high{"", {}, "#7f7f7f", true};
  core::ChartSeries by_cpu{"Elo of the generation's network", {}, "#d62728", false};
  core::ChartSeries cpu_low{"95% interval", {}, "#7f7f7f", true}, cpu_high{"", {}, "#7f7f7f", true};
  std::ostringstream text;
  text << "gen  CPU-hours  Elo [95%] against " << anchor << " = 0\n";
  auto bound = [](const json& b) { return b.is_null() ? NAN : b.get<double>(); };
  for (size_t i = 0; i < entrants.size(); ++i) {
    const LadderEntrant& e = entrants[i];
    const json& a = agents.at(static_cast<size_t>(references) + i);
    json row = {{"generation", e.generation},
                {"network", fs::path(e.network).filename().string()},
                {"cpu_hours", e.cpu_hours < 0 ? json(nullptr) : json(e.cpu_hours)}};
    double elo = NAN, lo = NAN, hi = NAN;
    if (a.contains("elo")) {
      elo = a["elo"]["rating"].get<double>();
      lo = bound(a["elo"]["low95"]);
      hi = bound(a["elo"]["high95"]);
      row["elo"] = elo;
      row["low95"] = a["elo"]["low95"];
      row["high95"] = a["elo"]["high95"];
    }
    rows.push_back(row);
    const auto x = static_cast<double>(e.generation);
    if (!std::isnan(elo)) {
      by_gen.points.emplace_back(x, elo);
      if (!std::isnan(lo)) low.points.emplace_back(x, lo);
      if (!std::isnan(hi)) high.points.emplace_back(x, hi);
      if (e.cpu_hours >= 0) {
        by_cpu.points.emplace_back(e.cpu_hours, elo);
        if (!std::isnan(lo)) cpu_low.points.emplace_back(e.cpu_hours, lo);
        if (!std::isnan(hi)) cpu_high.points.emplace_back(e.cpu_hours, hi);
      }
    }
    char line[160];
    std::snprintf(line, sizeof line, "%3d  %9s  %s [%s, %s]\n", e.generation,
                  e.cpu_hours < 0 ? "-" : core::fixedText(e.cpu_hours, 2).c_str(),
                  std::isnan(elo) ? "-" : core::fixedText(elo, 0).c_str(),
                  std::isnan(lo) ? "-inf" : core::fixedText(lo, 0).c_str(),
                  std::isnan(hi) ? "inf" : core::fixedText(hi, 0).c_str());
    text << line;
  }
  env::writeFileDurably(out_dir + "/generations.json",
                        json{{"anchor", anchor}, {"generations", rows}}.dump(2) + "\n");
  env::writeFileDurably(
      out_dir + "/progress.svg",
      core::lineChartSvg(
          {{"Elo against " + anchor + " = 0, by generation", "generation", {by_gen, low, high}},
           {"Elo against " + anchor + " = 0, by CPU-hour",
            "CPU-hours",
            {by_cpu, cpu_low, cpu_high}}}));
  return text.str();
}

JointLadder planJointLadder(const RunFolder& folder, const LoopConfig& config,
                            const JointLadderRequest& request) {
  const std::vector<int> generations =
      request.generations.empty() ? trainedGenerations(folder) : request.generations;
  if (generations.empty())
    throw ConfigError("loop ladder: " + folder.dir() + " has no network yet");
  JointLadder ladder;
  ladder.entrants = ladderEntrants(folder, generations);
  std::istringstream words(request.references.empty() ? config.loop.ladder_references
                                                      : request.references);
  for (std::string w; words >> w;) ladder.references.push_back(w);
  if (ladder.references.empty()) throw ConfigError("loop ladder: give at least one reference");
  const std::string agent = request.agent.empty() ? config.loop.ladder_agent : request.agent;
  arena::ArenaRequest& arena = ladder.arena;
  arena.what = "loop ladder";
  arena::ArenaRunFile& run = arena.given.run;
  run.agents = ladder.references;
  for (const LadderEntrant& e : ladder.entrants)
    run.agents.push_back(agents::withModel(agent, e.network));
  run.scenarios = {config.loop.scenario};
  run.rounds = request.rounds;
  run.seed = request.seed;
  arena.given.agents = arena.given.scenarios = arena.given.rounds = arena.given.seed = true;
  arena.out = request.out.empty() ? folder.path("ladder/joint") : request.out;
  arena.jobs = request.jobs;
  if (request.force) {
    arena.use = arena::FolderUse::kReplace;
  } else if (fs::exists(fs::path(arena.out) / "run.json")) {
    const arena::ArenaRunFile saved = arena::readRunFile(arena.out);
    if (saved.agents != run.agents || saved.seed != run.seed) {
      throw ConfigError("loop ladder: " + arena.out +
                        " holds a ladder of other players or another seed; --force starts it "
                        "over, --out DIR plays this one elsewhere");
    }
    arena.use = arena::FolderUse::kResume;
  }
  return ladder;
}

arena::ArenaRun runJointLadder(const JointLadder& ladder, arena::ArenaObserver& observer,
                               const std::atomic<bool>* stop, std::string& progress) {
  arena::ArenaRun run = arena::playArenaRun(ladder.arena, observer, stop);
  if (!run.interrupted && run.errors.empty()) {
    progress = writeLadderProgress(ladder.arena.out, ladder.entrants,
                                   static_cast<int>(ladder.references.size()));
  }
  return run;
}

}  // namespace morne::loop
