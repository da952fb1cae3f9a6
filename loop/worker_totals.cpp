#include "loop/worker_totals.h"

#include <filesystem>

#include "env/io/durable_file.h"
#include "loop/run_folder.h"

namespace morne::loop {

using env::anyValue;
using env::atLeast;

const env::OptionRow<WorkerTotals> kWorkerTotalsRows[10] = {
    {"worker", &WorkerTotals::worker, anyValue(), "the worker's name"},
    {"games", &WorkerTotals::games, atLeast(0), "finished games"},
    {"positions", &WorkerTotals::positions, atLeast(0), "recorded positions of finished games"},
    {"positions_played", &WorkerTotals::positions_played, atLeast(0),
     "positions of every game begun"},
    {"cpu_seconds", &WorkerTotals::cpu_seconds, atLeast(0), "CPU time the worker has used"},
    {"chunks", &WorkerTotals::chunks, atLeast(0), "chunks begun: the next one's number"},
    {"resign_checks", &WorkerTotals::resign_checks, atLeast(0),
     "recent resignation checks, halved past 200"},
    {"false_resignations", &WorkerTotals::false_resignations, atLeast(0),
     "of those, resignations that would have lost"},
    {"data_set", &WorkerTotals::data_set, atLeast(0), "the data set of the last chunk"},
    {"network", &WorkerTotals::network, anyValue(), "the network of the last chunk"},
};

WorkerTotals parseWorkerTotals(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw ConfigError(where + ": not a worker's totals (a JSON object)");
  WorkerTotals totals;
  env::readOptionsJson<WorkerTotals>(where, j, kWorkerTotalsRows, totals);
  return totals;
}

std::optional<WorkerTotals> readWorkerTotals(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  return parseWorkerTotals(readJsonFile(path, nlohmann::json()), path);
}

void writeWorkerTotals(const std::string& path, const WorkerTotals& totals) {
  env::writeFileDurably(path,
                        env::optionsJson<WorkerTotals>(kWorkerTotalsRows, totals).dump(1) + "\n");
}

}  // namespace morne::loop
