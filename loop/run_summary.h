#pragma once
// What a learning run has done, read from its folder (loop/run_folder.h) without changing it:
// one entry per generation (self-play games, training losses, gate, ladder), the CPU time of
// all its roles, summary.json and elo.svg, and the text of `morne loop status`.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "loop/generation_record.h"
#include "loop/loop_config.h"

namespace morne::loop {

// What the folder holds of generation g: its self-play games (in complete shards) and its
// records (loop/generation_record.h).
struct GenerationRecords {
  int generation = 0;
  std::optional<int> selfplay_games;  // none before its data set exists
  std::optional<TrainRecord> train;
  std::optional<GateRecord> gate;
  std::optional<LadderRecord> ladder;
};

// Each generation's, from 0 to the last with anything in the folder. ConfigError naming the
// file when a record is damaged.
std::vector<GenerationRecords> readGenerations(const RunFolder& folder);

// The "generations" of summary.json: one object per generation, with selfplay_games and the
// keys of its records side by side (the later record's where two share one: cpu_hours is the
// ladder's, else the gate's, else the learner's).
nlohmann::json runHistory(const std::vector<GenerationRecords>& generations);

// CPU seconds of all the run's roles so far: its workers, its learner and its gate.
double runCpuSeconds(const RunFolder& folder);

// Writes summary.json and elo.svg (Elo by generation and by CPU-hour).
void writeRunSummary(const RunFolder& folder, const LoopConfig& config);

// `morne loop status RUN`: where each role stands, the workers, and a table of the
// generations; a line of warning when the newest network's value head has learned no more than
// who usually wins (nn::valueLearnsOnlyTheSide), and one when it predicts nearly a constant
// (nn::valuePredictsAConstant).
std::string loopStatus(const std::string& run_dir);

}  // namespace morne::loop
