#include "loop/run_summary.h"

#include <filesystem>
#include <sstream>

#include "core/line_chart.h"
#include "core/number_text.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "loop/worker_totals.h"

namespace morne::loop {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string firstWord(const std::string& text) {
  std::istringstream in(text);
  std::string w;
  in >> w;
  return w;
}

}  // namespace

std::vector<GenerationRecords> readGenerations(const RunFolder& folder) {
  std::vector<GenerationRecords> out;
  for (int g = 0;; ++g) {
    GenerationRecords r{g, std::nullopt, readTrainRecord(folder, g), readGateRecord(folder, g),
                        readLadderRecord(folder, g)};
    const bool played = fs::exists(folder.dataSet(g));
    if (g > 0 && !played && !r.train && !r.gate && !r.ladder) break;
    if (played) r.selfplay_games = folder.gamesIn(g, false);  // journals left as they are
    out.push_back(std::move(r));
  }
  return out;
}

json runHistory(const std::vector<GenerationRecords>& generations) {
  json history = json::array();
  for (const GenerationRecords& r : generations) {
    json e = {{"generation", r.generation}};
    if (r.selfplay_games) e["selfplay_games"] = *r.selfplay_games;
    // The records' keys side by side, the later record's where they share one (cpu_hours).
    if (r.train) e.update(recordJson(*r.train));
    if (r.gate) e.update(recordJson(*r.gate));
    if (r.ladder) e.update(recordJson(*r.ladder));
    history.push_back(e);
  }
  return history;
}

double runCpuSeconds(const RunFolder& folder) {
  double seconds = 0;
  std::error_code ec;
  if (fs::is_directory(folder.path("workers"), ec)) {
    for (const auto& entry : fs::directory_iterator(folder.path("workers"))) {
      if (entry.path().extension() != ".json") continue;
      try {  // a damaged record counts nothing here; its worker keeps it aside when it starts
        seconds += readWorkerTotals(entry.path().string()).value_or(WorkerTotals{}).cpu_seconds;
      } catch (const ConfigError&) {
      }
    }
  }
  for (const char* state : {"train/learner.json", "gates/state.json"})
    seconds += readJsonFile(folder.path(state), json::object()).value("cpu_seconds", 0.0);
  return seconds;
}

void writeRunSummary(const RunFolder& folder, const LoopConfig& config) {
  const std::vector<GenerationRecords> generations = readGenerations(folder);
  const json gate = readJsonFile(folder.path("gates/state.json"), json::object());
  const json summary = {{"run", folder.dir()},
                        {"generation", gate.value("generation", 1)},
                        {"best", gate.value("best", "")},
                        {"cpu_hours", runCpuSeconds(folder) / 3600},
                        {"generations", runHistory(generations)}};
  env::writeFileDurably(folder.path("summary.json"), summary.dump(2) + "\n");
  core::ChartSeries by_gen{"Elo of the best network", {}, "#1f77b4", false};
  core::ChartSeries low{"95% interval", {}, "#7f7f7f", true}, high{"", {}, "#7f7f7f", true};
  core::ChartSeries by_cpu{"Elo of the best network", {}, "#d62728", false};
  for (const GenerationRecords& r : generations) {
    if (!r.ladder) continue;
    const auto g = static_cast<double>(r.generation);
    by_gen.points.emplace_back(g, r.ladder->elo);
    if (r.ladder->elo_low) low.points.emplace_back(g, *r.ladder->elo_low);
    if (r.ladder->elo_high) high.points.emplace_back(g, *r.ladder->elo_high);
    by_cpu.points.emplace_back(r.ladder->cpu_hours, r.ladder->elo);
  }
  const std::string anchor = firstWord(config.loop.ladder_references);
  env::writeFileDurably(
      folder.path("elo.svg"),
      core::lineChartSvg(
          {{"Elo against " + anchor + " = 0, by generation", "generation", {by_gen, low, high}},
           {"Elo against " + anchor + " = 0, by CPU-hour", "CPU-hours", {by_cpu}}}));
}

std::string loopStatus(const std::string& run_dir) {
  const RunFolder folder(run_dir);
  const json config = readJsonFile(folder.path("loop.json"), json());
  if (config.is_null()) throw ConfigError(run_dir + ": no loop.json (not a learning run)");
  if (fs::exists(folder.path("state.json")) && !fs::exists(folder.path("gates/state.json"))) {
    throw ConfigError(run_dir +
                      " was made by an earlier version of `morne loop` (state.json, before the "
                      "roles of docs/scale-out.md); its summary.json holds its figures");
  }
  const int generations = config["loop"].value("generations", 0);
  const json learner = readJsonFile(folder.path("train/learner.json"), json::object());
  const json gate = readJsonFile(folder.path("gates/state.json"), json::object());
  const LatestNetwork latest = folder.readLatest();
  const int gated = gate.value("generation", 1) - 1;
  std::ostringstream out;
  out << "run:        " << run_dir << "\n"
      << "generation: ";
  if (gated >= generations) {
    out << "finished, " << generations << " generations\n";
  } else {
    out << gated + 1 << " of " << generations << " (learner at generation "
        << learner.value("generation", 1) << ", workers playing data set "
        << generationName(latest.data_set) << ")\n";
  }
  out << "best:       " << (latest.network.empty() ? "none yet" : latest.network) << "\n"
      << "time:       " << core::fixedText(runCpuSeconds(folder) / 3600, 2) << " CPU-hours\n"
      << "training:   " << learner.value("trained_steps", int64_t{0}) << " steps\n";
  std::error_code ec;
  if (fs::is_directory(folder.path("workers"), ec)) {
    for (const auto& entry : fs::directory_iterator(folder.path("workers"))) {
      if (entry.path().extension() != ".json") continue;
      const std::string name = entry.path().stem().string();
      const bool alive = env::isLockedByAnotherProcess(folder.path("workers/" + name + ".lock"));
      out << "worker:     " << name << (alive ? " (running)" : " (stopped)") << ", ";
      try {
        const WorkerTotals w = readWorkerTotals(entry.path().string()).value_or(WorkerTotals{});
        out << w.games << " games, " << w.positions << " positions\n";
      } catch (const ConfigError& e) {
        out << "totals damaged (" << e.what() << "; the worker keeps them aside when it starts)\n";
      }
    }
  }
  out << "\ngen  games  step    policy (uniform)  value (0, side)        spread  gate             "
         "Elo [95%]\n";
  std::optional<nn::LossReport> last_losses;
  int last_trained = 0;
  for (const GenerationRecords& r : readGenerations(folder)) {
    char line[160];
    auto number = [](bool known, double value, int digits) {
      return known ? core::fixedText(value, digits) : std::string("-");
    };
    const bool losses = r.train && r.train->losses;
    const nn::LossReport v = losses ? *r.train->losses : nn::LossReport{};
    if (losses) {
      last_losses = v;
      last_trained = r.generation;
    }
    std::string verdict = "-";
    if (r.gate && r.gate->match && !r.gate->match->games) {
      verdict = "newest";  // promoted without gate games (--gate none)
    } else if (r.gate && r.gate->match) {
      const GateGames& games = *r.gate->match->games;
      verdict = std::to_string(games.wins) + "-" + std::to_string(games.draws) + "-" +
                std::to_string(games.losses) + (r.gate->match->promoted ? " promoted" : " kept");
    } else if (r.gate && r.gate->promoted) {
      verdict = "first";
    }
    std::string elo = "-";
    if (r.ladder) {
      elo = core::fixedText(r.ladder->elo, 0) + " [" +
            (r.ladder->elo_low ? core::fixedText(*r.ladder->elo_low, 0) : "-inf") + ", " +
            (r.ladder->elo_high ? core::fixedText(*r.ladder->elo_high, 0) : "inf") + "]";
    }
    std::snprintf(
        line, sizeof line, "%3d  %5s  %6s  %6s (%6s)  %5s (%5s, %5s)  %6s  %-15s  %s\n",
        r.generation, r.selfplay_games ? std::to_string(*r.selfplay_games).c_str() : "-",
        r.train ? std::to_string(r.train->train_step).c_str() : "-",
        number(losses, v.policy_loss, 3).c_str(), number(losses, v.policy_baseline, 3).c_str(),
        number(losses, v.value_loss, 3).c_str(), number(losses, v.value_baseline, 3).c_str(),
        number(losses && v.value_side_baseline > 0, v.value_side_baseline, 3).c_str(),
        number(r.gate && r.gate->search_spread > 0, r.gate ? r.gate->search_spread : 0, 3).c_str(),
        verdict.c_str(), elo.c_str());
    out << line;
  }
  if (last_losses && nn::valueLearnsOnlyTheSide(*last_losses)) {
    out << "\nvalue head: generation " << last_trained << "'s value loss "
        << core::fixedText(last_losses->value_loss, 3) << " is no better than "
        << core::fixedText(last_losses->value_side_baseline, 3)
        << ", that of predicting each side's average result: it has learned who usually wins, "
           "not which positions are better (a one-sided scenario, or too few games: "
           "docs/training.md, \"A value that predicts a constant\")\n";
  }
  if (last_losses && nn::valuePredictsAConstant(*last_losses)) {
    out << "\nvalue head: generation " << last_trained << "'s values vary by "
        << core::fixedText(last_losses->value_variance, 4)
        << " (variance) where the targets vary by "
        << core::fixedText(last_losses->value_target_variance, 4)
        << ": it predicts nearly a constant, and a search led by it cannot tell moves apart "
           "(docs/training.md, \"A value that predicts a constant\")\n";
  }
  return out.str();
}

}  // namespace morne::loop
