#pragma once
// What a learning run has done, read from its folder (loop/run_folder.h) without changing it:
// one entry per generation (self-play games, training losses, gate, ladder), the CPU time of
// all its roles, summary.json and elo.svg, and the text of `morne loop status`.

#include <nlohmann/json.hpp>
#include <string>

#include "loop/loop_config.h"

namespace morne::loop {

// One entry per generation, from 0 to the last with anything in the folder: selfplay_games
// (in complete shards), the training's figures (train/gen-NNN.json), the gate's
// (gates/gen-NNN.json) and the ladder's (ladder/gen-NNN.json).
nlohmann::json runHistory(const RunFolder& folder);

// CPU seconds of all the run's roles so far: its workers, its learner and its gate.
double runCpuSeconds(const RunFolder& folder);

// Writes summary.json and elo.svg (Elo by generation and by CPU-hour).
void writeRunSummary(const RunFolder& folder, const LoopConfig& config);

// `morne loop status RUN`: where each role stands, the workers, and a table of the
// generations.
std::string loopStatus(const std::string& run_dir);

}  // namespace morne::loop
