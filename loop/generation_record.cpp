#include "loop/generation_record.h"

#include "env/error.h"
#include "env/io/durable_file.h"

namespace morne::loop {

namespace {

using nlohmann::json;

const env::OptionRow<TrainRecord> kTrainRows[] = {
    {"generation", &TrainRecord::generation, env::atLeast(0), "the generation"},
    {"train_step", &TrainRecord::train_step, env::atLeast(0), "the learner's steps so far"},
    {"waited_seconds", &TrainRecord::waited_seconds, env::atLeast(0),
     "seconds waiting for self-play data"},
    {"candidate", &TrainRecord::candidate, env::anyValue(), "the network made"},
    {"cpu_hours", &TrainRecord::cpu_hours, env::atLeast(0), "the run's CPU time then"},
};

// The exchange figures' keys in train/gen-NNN.json, "exchange_" first.
const env::OptionRow<ExchangeFigures> kExchangeRows[] = {
    {"exchange_ms_per_step", &ExchangeFigures::ms_per_step, env::atLeast(0),
     "milliseconds a step exchanging gradients"},
    {"exchange_floats_per_step", &ExchangeFigures::floats_per_step, env::atLeast(0),
     "floats summed a step"},
    {"exchange_bytes_sent_per_rank_step", &ExchangeFigures::bytes_sent_per_rank_step,
     env::atLeast(0), "bytes each rank sent a step"},
};

const env::OptionRow<GateRecord> kGateRows[] = {
    {"generation", &GateRecord::generation, env::atLeast(0), "the generation"},
    {"promoted", &GateRecord::promoted, env::anyValue(), "whether its network became the best"},
    {"cpu_hours", &GateRecord::cpu_hours, env::atLeast(0), "the run's CPU time then"},
    {"search_spread", &GateRecord::search_spread, env::atLeast(0),
     "the candidate's search spread (0: not measured)", env::kRecorded, env::before("0")},
};

const env::OptionRow<AveragedNetwork> kAveragedRows[] = {
    {"network", &AveragedNetwork::network, env::anyValue(), "a candidate averaged"},
    {"weight", &AveragedNetwork::weight, env::atLeast(0), "its weight"},
};

const env::OptionRow<GateMatch> kMatchRows[] = {
    {"against", &GateMatch::against, env::anyValue(), "the best network"},
    {"rule", &GateMatch::rule, env::anyValue(), "the gate's rule"},
    {"promoted", &GateMatch::promoted, env::anyValue(), "the rule's decision"},
};

const env::OptionRow<GateGames> kGamesRows[] = {
    {"wins", &GateGames::wins, env::atLeast(0), "the candidate's wins"},
    {"draws", &GateGames::draws, env::atLeast(0), "its draws"},
    {"losses", &GateGames::losses, env::atLeast(0), "its losses"},
    {"duplicate_mean", &GateGames::duplicate_mean, env::anyValue(),
     "its mean over duplicate rounds (-1 to 1)"},
    {"duplicate_margin95", &GateGames::duplicate_margin95, env::atLeast(0),
     "that mean's 95% margin"},
};

const env::OptionRow<SprtRecord> kSprtRows[] = {
    {"elo0", &SprtRecord::elo0, env::anyValue(), "H0's Elo"},
    {"elo1", &SprtRecord::elo1, env::anyValue(), "H1's Elo"},
    {"alpha", &SprtRecord::alpha, env::anyValue(), "the chance of accepting H1 under H0"},
    {"beta", &SprtRecord::beta, env::anyValue(), "the chance of accepting H0 under H1"},
    {"pairs", &SprtRecord::pairs, env::atLeast(0), "duplicate pairs played"},
    {"llr", &SprtRecord::llr, env::anyValue(), "the log-likelihood ratio"},
    {"verdict", &SprtRecord::verdict, env::oneOf("H1|H0|cap"), "what the test decided"},
};

const env::OptionRow<LadderRecord> kLadderRows[] = {
    {"generation", &LadderRecord::generation, env::atLeast(0), "the generation"},
    {"elo", &LadderRecord::elo, env::anyValue(), "the best network's Elo (the anchor = 0)"},
    {"anchor", &LadderRecord::anchor, env::anyValue(), "the first reference"},
    {"rated", &LadderRecord::rated, env::anyValue(), "the network rated"},
    {"cpu_hours", &LadderRecord::cpu_hours, env::atLeast(0), "the run's CPU time then"},
};

template <class Record, size_t N>
std::span<const env::OptionRow<Record>> rowsOf(const env::OptionRow<Record> (&rows)[N]) {
  return rows;
}

template <class Record, size_t N>
Record readRows(const std::string& where, const json& j, const env::OptionRow<Record> (&rows)[N]) {
  Record r;
  env::readOptionsJson(where, j, rowsOf(rows), r);
  return r;
}

// The value at `key` of `j` as T; ConfigError naming it otherwise.
template <class T>
T valueAt(const std::string& where, const json& j, const std::string& key) {
  if (!j.contains(key)) throw ConfigError(where + ": no \"" + key + "\"");
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    throw ConfigError(where + ": \"" + key + "\" has the wrong type");
  }
}

// A bound of the Elo interval: null when unbounded.
json boundJson(const std::optional<double>& b) { return b ? json(*b) : json(nullptr); }
std::optional<double> readBound(const std::string& where, const json& j, const std::string& key) {
  if (j.contains(key) && j.at(key).is_null()) return std::nullopt;
  return valueAt<double>(where, j, key);
}

template <class Record>
void writeRecordFile(const RunFolder& folder, const char* dir, const Record& r, int indent) {
  env::writeFileDurably(
      folder.path(std::string(dir) + "/" + generationName(r.generation) + ".json"),
      recordJson(r).dump(indent) + "\n");
}

// Generation g's record in folder/dir, read by `read`; none when absent.
template <class Record, class Read>
std::optional<Record> readGenerationFile(const RunFolder& folder, const char* dir, int g,
                                         Read read) {
  const std::string path = folder.path(std::string(dir) + "/" + generationName(g) + ".json");
  const json j = readJsonFile(path, json());
  if (j.is_null()) return std::nullopt;
  return read(path, j);
}

}  // namespace

double GateGames::score() const {
  const int games = wins + draws + losses;
  return games ? (wins + 0.5 * draws) / games : 0.0;
}

std::span<const env::OptionRow<TrainRecord>> trainRecordRows() { return kTrainRows; }
std::span<const env::OptionRow<GateRecord>> gateRecordRows() { return kGateRows; }
std::span<const env::OptionRow<LadderRecord>> ladderRecordRows() { return kLadderRows; }

json recordJson(const TrainRecord& r) {
  json j = env::optionsJson(rowsOf(kTrainRows), r);
  if (r.losses) {
    for (const nn::LossFigure& f : nn::lossFigures()) j[f.name] = (*r.losses).*f.member;
  }
  if (r.exchange) j.update(env::optionsJson(rowsOf(kExchangeRows), *r.exchange));
  return j;
}

TrainRecord readTrainRecordJson(const std::string& where, const json& j) {
  TrainRecord r = readRows(where, j, kTrainRows);
  if (j.contains(nn::lossFigures().front().name)) {
    r.losses.emplace();
    for (const nn::LossFigure& f : nn::lossFigures()) {
      if (f.added_later && !j.contains(f.name)) continue;
      (*r.losses).*f.member = valueAt<double>(where, j, f.name);
    }
  }
  if (j.contains(kExchangeRows[0].name)) r.exchange = readRows(where, j, kExchangeRows);
  return r;
}

json recordJson(const GateRecord& r) {
  json j = env::optionsJson(rowsOf(kGateRows), r);
  if (!r.averaged.empty()) {
    json averaged = json::array();
    for (const AveragedNetwork& a : r.averaged)
      averaged.push_back(env::optionsJson(rowsOf(kAveragedRows), a));
    j["averaged"] = averaged;
  }
  if (r.match) {
    json m = env::optionsJson(rowsOf(kMatchRows), *r.match);
    if (r.match->games) {
      m.update(env::optionsJson(rowsOf(kGamesRows), *r.match->games));
      m["score"] = r.match->games->score();
    }
    if (r.match->sprt) {
      m.update(env::optionsJson(rowsOf(kSprtRows), *r.match->sprt));
      m["bounds"] = r.match->sprt->bounds;
    }
    j["gate"] = m;
  }
  return j;
}

GateRecord readGateRecordJson(const std::string& where, const json& j) {
  GateRecord r = readRows(where, j, kGateRows);
  if (j.contains("averaged")) {
    const json& averaged = j.at("averaged");
    if (!averaged.is_array()) throw ConfigError(where + ": \"averaged\" is not a list");
    for (const json& a : averaged)
      r.averaged.push_back(readRows(where + " (averaged)", a, kAveragedRows));
  }
  if (j.contains("gate")) {
    const std::string in = where + " (gate)";
    const json& m = j.at("gate");
    r.match = readRows(in, m, kMatchRows);
    if (m.contains("wins")) r.match->games = readRows(in, m, kGamesRows);
    if (r.match->rule == "sprt") {
      r.match->sprt = readRows(in, m, kSprtRows);
      r.match->sprt->bounds = valueAt<std::array<double, 2>>(in, m, "bounds");
    }
  }
  return r;
}

json recordJson(const LadderRecord& r) {
  json j = env::optionsJson(rowsOf(kLadderRows), r);
  j["elo_low"] = boundJson(r.elo_low);
  j["elo_high"] = boundJson(r.elo_high);
  j["scores"] = r.scores;
  return j;
}

LadderRecord readLadderRecordJson(const std::string& where, const json& j) {
  LadderRecord r = readRows(where, j, kLadderRows);
  r.elo_low = readBound(where, j, "elo_low");
  r.elo_high = readBound(where, j, "elo_high");
  r.scores = valueAt<std::map<std::string, double>>(where, j, "scores");
  return r;
}

void writeGenerationRecord(const RunFolder& folder, const TrainRecord& r) {
  writeRecordFile(folder, "train", r, 1);
}
void writeGenerationRecord(const RunFolder& folder, const GateRecord& r) {
  writeRecordFile(folder, "gates", r, 2);
}
void writeGenerationRecord(const RunFolder& folder, const LadderRecord& r) {
  writeRecordFile(folder, "ladder", r, 2);
}

std::optional<TrainRecord> readTrainRecord(const RunFolder& folder, int g) {
  return readGenerationFile<TrainRecord>(folder, "train", g, readTrainRecordJson);
}
std::optional<GateRecord> readGateRecord(const RunFolder& folder, int g) {
  return readGenerationFile<GateRecord>(folder, "gates", g, readGateRecordJson);
}
std::optional<LadderRecord> readLadderRecord(const RunFolder& folder, int g) {
  return readGenerationFile<LadderRecord>(folder, "ladder", g, readLadderRecordJson);
}

}  // namespace morne::loop
