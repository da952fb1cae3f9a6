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

json runHistory(const RunFolder& folder) {
  json history = json::array();
  for (int g = 0;; ++g) {
    const std::string name = generationName(g);
    const json train = readJsonFile(folder.path("train/" + name + ".json"), json());
    const json gate = readJsonFile(folder.path("gates/" + name + ".json"), json());
    const json ladder = readJsonFile(folder.path("ladder/" + name + ".json"), json());
    const bool played = fs::exists(folder.dataSet(g));
    if (g > 0 && !played && train.is_null() && gate.is_null() && ladder.is_null()) break;
    json e = {{"generation", g}};
    if (played) e["selfplay_games"] = folder.gamesIn(g, false);  // journals left as they are
    for (const json* part : {&train, &gate, &ladder}) {
      if (part->is_null()) continue;
      for (const auto& [key, value] : part->items()) {
        if (key != "generation") e[key] = value;
      }
    }
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
  const json history = runHistory(folder);
  const json gate = readJsonFile(folder.path("gates/state.json"), json::object());
  const json summary = {{"run", folder.dir()},
                        {"generation", gate.value("generation", 1)},
                        {"best", gate.value("best", "")},
                        {"cpu_hours", runCpuSeconds(folder) / 3600},
                        {"generations", history}};
  env::writeFileDurably(folder.path("summary.json"), summary.dump(2) + "\n");
  core::ChartSeries by_gen{"Elo of the best network", {}, "#1f77b4", false};
  core::ChartSeries low{"95% interval", {}, "#7f7f7f", true}, high{"", {}, "#7f7f7f", true};
  core::ChartSeries by_cpu{"Elo of the best network", {}, "#d62728", false};
  for (const json& e : history) {
    if (!e.contains("elo")) continue;
    const double g = e["generation"].get<double>(), elo = e["elo"].get<double>();
    by_gen.points.emplace_back(g, elo);
    if (!e["elo_low"].is_null()) low.points.emplace_back(g, e["elo_low"].get<double>());
    if (!e["elo_high"].is_null()) high.points.emplace_back(g, e["elo_high"].get<double>());
    by_cpu.points.emplace_back(e.value("cpu_hours", 0.0), elo);
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
  out << "\ngen  games  step    policy (uniform)  value (0)  gate             Elo [95%]\n";
  for (const json& e : runHistory(folder)) {
    char line[160];
    auto number = [&](const char* key, int digits) {
      return e.contains(key) ? core::fixedText(e[key].get<double>(), digits) : std::string("-");
    };
    std::string verdict = "-";
    if (e.contains("gate") && !e["gate"].contains("wins")) {
      verdict = "newest";  // promoted without gate games (--gate none)
    } else if (e.contains("gate")) {
      verdict = std::to_string(e["gate"]["wins"].get<int>()) + "-" +
                std::to_string(e["gate"]["draws"].get<int>()) + "-" +
                std::to_string(e["gate"]["losses"].get<int>()) +
                (e["gate"]["promoted"].get<bool>() ? " promoted" : " kept");
    } else if (e.value("promoted", false)) {
      verdict = "first";
    }
    std::string elo = "-";
    if (e.contains("elo")) {
      elo = number("elo", 0) + " [" +
            (e["elo_low"].is_null() ? "-inf" : core::fixedText(e["elo_low"].get<double>(), 0)) +
            ", " +
            (e["elo_high"].is_null() ? "inf" : core::fixedText(e["elo_high"].get<double>(), 0)) +
            "]";
    }
    std::snprintf(
        line, sizeof line, "%3d  %5s  %6s  %6s (%6s)  %5s (%5s)  %-15s  %s\n",
        e["generation"].get<int>(),
        e.contains("selfplay_games") ? std::to_string(e["selfplay_games"].get<int>()).c_str() : "-",
        e.contains("train_step") ? std::to_string(e["train_step"].get<int64_t>()).c_str() : "-",
        number("policy_loss", 3).c_str(), number("policy_baseline", 3).c_str(),
        number("value_loss", 3).c_str(), number("value_baseline", 3).c_str(), verdict.c_str(),
        elo.c_str());
    out << line;
  }
  return out.str();
}

}  // namespace morne::loop
