#include "env/io/game_record.h"

#include <nlohmann/json.hpp>

#include "env/check.h"
#include "env/error.h"
#include "env/io/json_reader.h"
#include "env/io/notation.h"
#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/io/text_file.h"
#include "env/rules.h"

namespace morne::env {

using nlohmann::json;

namespace {

// The result of a record; "handicap" only where the scenario gives one, so that records of
// scenarios without one read as before.
json resultJson(const GameResult& r) {
  json j = {{"vp", {{"blue", r.vp[0]}, {"orange", r.vp[1]}}},
            {"winner", r.winner == kNoSide ? json(nullptr) : json(sideColor(r.winner))},
            {"level", r.level},
            {"level_name", victoryLevelName(r.level)}};
  if (r.handicap_half[0] != 0 || r.handicap_half[1] != 0) {
    j["handicap"] = {{"blue", r.handicap_half[0] / 2.0}, {"orange", r.handicap_half[1] / 2.0}};
  }
  return j;
}

// The built-in scenario named `name` when its text is that of `sc`, so that the record can name
// it instead of carrying it.
bool isUnchangedBuiltin(const Scenario& sc) {
  for (const BuiltinScenario& b : builtinScenarios()) {
    if (sc.name() == b.name) return sc.sourceText() == b.json;
  }
  return false;
}

std::shared_ptr<const Scenario> readScenario(JsonReader& in, const json& j,
                                             const std::string& source) {
  const json* v = in.required(j, "", "scenario");
  if (!v) return nullptr;
  if (v->is_object()) {
    try {
      return parseScenario(v->dump(), source + "/scenario");
    } catch (const ValidationError& e) {
      for (const Problem& p : e.problems()) in.fail("/scenario" + p.path, p.message);
      return nullptr;
    }
  }
  const auto name = in.string(*v, "/scenario");
  if (!name) return nullptr;
  for (const BuiltinScenario& b : builtinScenarios()) {
    if (*name == b.name) return loadScenario(*name);
  }
  std::string known;
  for (const BuiltinScenario& b : builtinScenarios())
    known += (known.empty() ? "" : ", ") + std::string(b.name);
  in.fail("/scenario", "\"" + *name + "\" is not a built-in scenario (" + known +
                           "); a record carries any other scenario as its document");
  return nullptr;
}

void readPlies(JsonReader& in, const json& plies, GameRecord& r) {
  if (!in.expectArray(plies, "/plies")) return;
  GameState s = r.start ? *r.start : newGame(*r.scenario);
  for (size_t i = 0; i < plies.size(); ++i) {
    const std::string path = JsonReader::child("/plies", i);
    const json& p = plies[i];
    if (s.isTerminal()) {
      in.fail(path, "the game is already over after " + std::to_string(i) + " plies");
      return;
    }
    RecordedPly ply;
    if (p.is_string()) {
      std::string error;
      std::optional<Refusal> refusal;
      const auto a = parseActionText(s, p.get<std::string>(), &error, &refusal);
      if (!a) {
        in.fail(path, refusal ? refusal->message + " (" + refusal->rule + ")" : error);
        return;
      }
      if (const auto why = explainIllegal(s, *a)) {
        in.fail(path, p.get<std::string>() + " is illegal here: " + why->message +
                          (why->rule.empty() ? "" : " (" + why->rule + ")"));
        return;
      }
      ply.action = *a;
    } else {
      if (!in.expectObject(p, path, {"chance", "outcome"})) return;
      const json* kind = in.required(p, path, "chance");
      const json* outcome = in.required(p, path, "outcome");
      if (!kind || !outcome) return;
      const auto value = in.integer(*outcome, path + "/outcome", 0, 99);
      if (!value) return;
      if (!s.isChanceNode()) {
        in.fail(path, "no chance event is pending here; the ply should be an action");
        return;
      }
      const std::string pending(chanceKindName(s.pending.kind));
      if (!kind->is_string() || kind->get<std::string>() != pending) {
        in.fail(path + "/chance", "the pending chance event is a " + pending);
        return;
      }
      ChanceList outcomes;
      chanceOutcomes(s, outcomes);
      bool possible = false;
      for (const ChanceOutcome& o : outcomes) possible = possible || o.value == *value;
      if (!possible) {
        in.fail(path + "/outcome", "the " + pending + " cannot draw " + std::to_string(*value));
        return;
      }
      ply.chance = true;
      ply.outcome = *value;
    }
    if (ply.chance) {
      applyChance(s, ply.outcome);
    } else {
      applyAction(s, ply.action);
    }
    r.plies.push_back(ply);
  }
}

void readTakebacks(JsonReader& in, const json& takebacks, GameRecord& r) {
  if (!in.expectArray(takebacks, "/takebacks")) return;
  constexpr int kMaxPly = 1 << 30;
  for (size_t i = 0; i < takebacks.size(); ++i) {
    const std::string path = JsonReader::child("/takebacks", i);
    if (!in.expectObject(takebacks[i], path, {"ply", "taken_back"})) return;
    const json* ply = in.required(takebacks[i], path, "ply");
    const json* taken_back = in.required(takebacks[i], path, "taken_back");
    if (!ply || !taken_back) return;
    const auto at = in.integer(*ply, path + "/ply", 0, kMaxPly);
    const auto count = in.integer(*taken_back, path + "/taken_back", 1, kMaxPly);
    if (!at || !count) return;
    r.takebacks.push_back({static_cast<size_t>(*at), static_cast<size_t>(*count)});
  }
}

}  // namespace

GameState replayRecord(const GameRecord& record, size_t plies, EventLog* log) {
  MORNE_CHECK(plies <= record.plies.size(), "replay past the end of a record");
  GameState s = record.start ? *record.start : newGame(*record.scenario);
  for (size_t i = 0; i < plies; ++i) {
    EventLog* events = i + 1 == plies ? log : nullptr;
    const RecordedPly& p = record.plies[i];
    if (p.chance) {
      applyChance(s, p.outcome, events);
    } else {
      applyAction(s, p.action, events);
    }
  }
  return s;
}

json recordToJson(const GameRecord& record) {
  const Scenario& sc = *record.scenario;
  json plies = json::array();
  GameState s = record.start ? *record.start : newGame(sc);
  for (const RecordedPly& p : record.plies) {
    if (p.chance) {
      plies.push_back(
          {{"chance", std::string(chanceKindName(s.pending.kind))}, {"outcome", p.outcome}});
      applyChance(s, p.outcome);
    } else {
      plies.push_back(actionText(s, p.action));
      applyAction(s, p.action);
    }
  }
  json agents = json::object();
  for (int side = 0; side < kNumSides; ++side) {
    const std::string& spec = record.agents[static_cast<size_t>(side)];
    agents[sideColor(side)] = spec.empty() ? json(nullptr) : json(spec);
  }
  json out = {{"format", kGameRecordFormat},
              {"scenario", isUnchangedBuiltin(sc) ? json(sc.name()) : json::parse(sc.sourceText())},
              {"seed", record.seed},
              {"agents", agents},
              {"start", record.start ? stateToJson(*record.start) : json(nullptr)},
              {"plies", plies},
              {"result", s.isTerminal() ? resultJson(gameResult(s)) : json(nullptr)}};
  if (record.free_rerolls) out["free_rerolls"] = true;
  if (!record.takebacks.empty()) {
    json takebacks = json::array();
    for (const Takeback& t : record.takebacks)
      takebacks.push_back({{"ply", t.ply}, {"taken_back", t.taken_back}});
    out["takebacks"] = takebacks;
  }
  return out;
}

GameRecord recordFromJson(const json& j, const std::string& source) {
  std::vector<Problem> problems;
  JsonReader in(problems);
  GameRecord r;
  if (!in.expectObject(j, "",
                       {"format", "scenario", "seed", "agents", "start", "plies", "result",
                        "free_rerolls", "takebacks"}))
    throw ValidationError(source, problems);
  if (const json* f = in.required(j, "", "format")) {
    if (!f->is_string() || f->get<std::string>() != kGameRecordFormat)
      in.fail("/format", std::string("expected \"") + kGameRecordFormat + "\"");
  }
  r.scenario = readScenario(in, j, source);
  if (const json* seed = JsonReader::optional(j, "seed")) {
    if (seed->is_number_unsigned()) {
      r.seed = seed->get<uint64_t>();
    } else {
      in.fail("/seed", "expected a non-negative integer");
    }
  }
  if (const json* agents = JsonReader::optional(j, "agents")) {
    if (in.expectObject(*agents, "/agents", {"blue", "orange"})) {
      for (int side = 0; side < kNumSides; ++side) {
        const json* spec = JsonReader::optional(*agents, sideColor(side));
        if (!spec || spec->is_null()) continue;
        if (const auto text = in.string(*spec, "/agents/" + std::string(sideColor(side))))
          r.agents[static_cast<size_t>(side)] = *text;
      }
    }
  }
  if (const json* free = JsonReader::optional(j, "free_rerolls")) {
    if (free->is_boolean()) {
      r.free_rerolls = free->get<bool>();
    } else {
      in.fail("/free_rerolls", "expected true or false");
    }
  }
  if (const json* takebacks = JsonReader::optional(j, "takebacks"))
    readTakebacks(in, *takebacks, r);
  if (!in.ok() || !r.scenario) throw ValidationError(source, problems);
  if (const json* start = JsonReader::optional(j, "start"); start && !start->is_null()) {
    try {
      r.start = stateFromJson(*r.scenario, *start, source + "/start");
    } catch (const ValidationError& e) {
      for (const Problem& p : e.problems()) in.fail("/start" + p.path, p.message);
      throw ValidationError(source, problems);
    }
  }
  if (const json* plies = in.required(j, "", "plies")) readPlies(in, *plies, r);
  if (const json* result = JsonReader::optional(j, "result"); result && in.ok()) {
    const GameState end = replayRecord(r, r.plies.size());
    if (!result->is_null()) {
      if (!end.isTerminal()) {
        in.fail("/result", "the record has a result but its plies do not end the game");
      } else if (*result != resultJson(gameResult(end))) {
        in.fail("/result", "the plies end the game with " + resultJson(gameResult(end)).dump() +
                               ", not the result recorded");
      }
    }
  }
  if (!in.ok()) throw ValidationError(source, problems);
  return r;
}

GameRecord loadRecordFile(const std::string& path) {
  const std::string text = readTextFile(path, "game record");
  std::vector<Problem> problems;
  const auto j = parseJsonText(text, problems);
  if (!j) throw ValidationError(printablePath(path), problems);
  return recordFromJson(*j, printablePath(path));
}

}  // namespace morne::env
