#pragma once
// The records a learning run keeps of each generation (loop/run_folder.h): what the learner
// made (train/gen-NNN.json), what the gate decided (gates/gen-NNN.json) and what the ladder
// measured (ladder/gen-NNN.json). Each is a struct whose keys are declared once, in rows
// (env/io/field_table.h): the roles write them, the run's summary, `loop status` and the joint
// ladder read them, and a damaged one is refused naming its file and key.

#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "env/io/field_table.h"
#include "loop/run_folder.h"
#include "nn/learner.h"

namespace morne::loop {

// The learner's exchanges between ranks while it trained a generation (data-parallel only).
struct ExchangeFigures {
  double ms_per_step = 0;  // waiting for the slowest rank included
  int64_t floats_per_step = 0;
  double bytes_sent_per_rank_step = 0;
};

// train/gen-NNN.json: the candidate network the learner made for generation g.
struct TrainRecord {
  int generation = 0;
  int64_t train_step = 0;     // the learner's optimizer steps so far
  double waited_seconds = 0;  // waiting for self-play data
  std::string candidate;      // nets/candidate-NNN.pt
  double cpu_hours = 0;       // the run's CPU time when it was made
  // The last validation figures (the training batch's without validation rows); none when the
  // generation took no step.
  std::optional<nn::LossReport> losses;
  std::optional<ExchangeFigures> exchange;
};

// The SPRT of a gate (loop/gate_rule.h): its hypotheses, what it saw and what it decided.
struct SprtRecord {
  double elo0 = 0, elo1 = 0, alpha = 0, beta = 0;  // SprtConfig's
  int pairs = 0;                                   // duplicate pairs played
  double llr = 0;
  std::array<double, 2> bounds{};  // accept H0 at or below the first, H1 at or above the second
  std::string verdict;             // "H1", "H0" or "cap" (the rounds ran out)
};

// The candidate's games in a gate: its results, and its duplicate mean with a 95% margin.
struct GateGames {
  int wins = 0, draws = 0, losses = 0;
  double duplicate_mean = 0;
  double duplicate_margin95 = 0;
  // The candidate's score (a win 1, a draw 0.5); 0 without games.
  double score() const;
};

// The match of a gate: the candidate against the best network.
struct GateMatch {
  std::string against;  // the best network: nets/gen-NNN.pt
  std::string rule;     // "none", "score >= S", "none, guard: score >= S" or "sprt"
  bool promoted = false;
  std::optional<GateGames> games;  // none when promoted without games (no gate, no guard)
  std::optional<SprtRecord> sprt;
};

// One network of a moving average, with its weight.
struct AveragedNetwork {
  std::string network;
  double weight = 0;
};

// gates/gen-NNN.json: whether generation g's network became the best one.
struct GateRecord {
  int generation = 0;
  bool promoted = false;
  double cpu_hours = 0;                   // the run's CPU time when it was decided
  std::vector<AveragedNetwork> averaged;  // what was gated, newest first (none: the candidate)
  std::optional<GateMatch> match;         // none for the first network
  // The candidate's search spread (agents/search_spread.h): az:sims=200 on the run's
  // spread-positions positions; 0 when not measured.
  double search_spread = 0;
};

// ladder/gen-NNN.json: the best network's Elo against fixed references after generation g.
struct LadderRecord {
  int generation = 0;
  double elo = 0;                 // against the anchor = 0
  std::optional<double> elo_low;  // its 95% interval; none when unbounded
  std::optional<double> elo_high;
  std::string anchor;                    // the first reference's spec
  std::map<std::string, double> scores;  // the network's score against each reference
  std::string rated;                     // the network rated: nets/gen-NNN.pt
  double cpu_hours = 0;                  // the run's CPU time when it was measured
};

// The scalar keys of each record, declared once (the optional parts follow their own rows).
std::span<const env::OptionRow<TrainRecord>> trainRecordRows();
std::span<const env::OptionRow<GateRecord>> gateRecordRows();
std::span<const env::OptionRow<LadderRecord>> ladderRecordRows();

// Each record as the JSON object of its file, and back (ConfigError naming `where` and the key
// when one is missing, of the wrong type or out of its range).
nlohmann::json recordJson(const TrainRecord& r);
nlohmann::json recordJson(const GateRecord& r);
nlohmann::json recordJson(const LadderRecord& r);
TrainRecord readTrainRecordJson(const std::string& where, const nlohmann::json& j);
GateRecord readGateRecordJson(const std::string& where, const nlohmann::json& j);
LadderRecord readLadderRecordJson(const std::string& where, const nlohmann::json& j);

// Writes generation r.generation's record to the folder, durably.
void writeGenerationRecord(const RunFolder& folder, const TrainRecord& r);
void writeGenerationRecord(const RunFolder& folder, const GateRecord& r);
void writeGenerationRecord(const RunFolder& folder, const LadderRecord& r);

// Generation g's record in the folder; none when it is not written yet. ConfigError naming the
// file when it is damaged.
std::optional<TrainRecord> readTrainRecord(const RunFolder& folder, int g);
std::optional<GateRecord> readGateRecord(const RunFolder& folder, int g);
std::optional<LadderRecord> readLadderRecord(const RunFolder& folder, int g);

}  // namespace morne::loop
