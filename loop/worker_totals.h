#pragma once
// A self-play worker's totals, workers/NAME.json of a run folder: what it has played and the
// next chunk it begins (its names and seeds). Declared once (kWorkerTotalsRows): the worker
// writes and reads them, `loop status` and the run's CPU time read them, and `loop serve`
// checks an uploaded record with them before it stores it.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "env/io/field_table.h"

namespace morne::loop {

struct WorkerTotals {
  std::string worker;             // the worker's name
  int64_t games = 0;              // finished games
  int64_t positions = 0;          // recorded positions of finished games
  int64_t positions_played = 0;   // positions of every game begun
  double cpu_seconds = 0;         // CPU time the worker has used
  int64_t chunks = 0;             // chunks begun: the next one's number
  double resign_checks = 0;       // recent resignation checks, halved past 200
  double false_resignations = 0;  // of those, resignations that would have lost
  int data_set = 0;               // the data set of the last chunk
  std::string network;            // the network of the last chunk
};

extern const env::OptionRow<WorkerTotals> kWorkerTotalsRows[10];

// The totals of record `j`; `where` names it in messages. Throws ConfigError naming the key
// when one is missing, of the wrong type or out of its range.
WorkerTotals parseWorkerTotals(const nlohmann::json& j, const std::string& where);

// The totals of the file `path`, or nothing when there is none. Throws ConfigError naming the
// file when it is damaged or not a worker's totals.
std::optional<WorkerTotals> readWorkerTotals(const std::string& path);

// Writes `totals` to `path` durably. Throws IoError.
void writeWorkerTotals(const std::string& path, const WorkerTotals& totals);

}  // namespace morne::loop
