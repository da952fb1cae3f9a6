// The game an engine session plays: loading a scenario or a record, actions and dice ("apply",
// "roll"), replacing the position ("set_state"), taking plies back ("undo"), game records
// ("save", "load_game", "replay"), and what the bound side may see. Every ply goes into the
// record, from which undo and replay rebuild the position exactly (docs/protocol.md).

#include "engine/played_game.h"

#include "engine/reply_json.h"
#include "engine/request_error.h"
#include "env/io/builtin_scenarios.h"
#include "env/io/notation.h"
#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/rule_switches.h"
#include "env/rules.h"
#include "env/visibility.h"

namespace morne::engine {

using nlohmann::json;

namespace {

using R = env::RefusalReason;

bool isBuiltinScenario(const std::string& name) {
  for (const env::BuiltinScenario& b : env::builtinScenarios()) {
    if (name == b.name) return true;
  }
  return false;
}

// The ply a request names: an action (by object, text or index) or a chance outcome; the rules'
// refusal when it is not one they allow now.
env::RecordedPly requestedPly(const env::GameState& s, const json& req) {
  const int given =
      static_cast<int>(req.contains("action")) + static_cast<int>(req.contains("text")) +
      static_cast<int>(req.contains("index")) + static_cast<int>(req.contains("outcome"));
  if (given != 1) {
    throw RequestError{"bad_request",
                       "give exactly one of \"action\" (object), \"text\", \"index\" or "
                       "\"outcome\" (at a chance event)"};
  }
  if (req.contains("outcome")) {
    const int value = static_cast<int>(integerField(req, "outcome", INT32_MIN, INT32_MAX));
    if (!s.isChanceNode())
      throw RequestError::refused({R::kNoChancePending, "RNG-5", "no chance event is pending"});
    env::ChanceList outcomes;
    env::chanceOutcomes(s, outcomes);
    bool valid = false;
    for (const env::ChanceOutcome& o : outcomes) valid = valid || o.value == value;
    if (!valid) {
      throw RequestError::refused({R::kImpossibleOutcome, "ENG-2",
                                   "outcome " + std::to_string(value) +
                                       " is not possible; the pending " +
                                       std::string(env::chanceKindName(s.pending.kind)) +
                                       " draws " + std::to_string(outcomes[0].value) + ".." +
                                       std::to_string(outcomes[outcomes.size() - 1].value)});
    }
    return {.chance = true, .action = {}, .outcome = value};
  }
  std::optional<env::Action> action;
  std::optional<env::Refusal> refusal;
  std::string error;
  if (req.contains("text")) {
    if (!req["text"].is_string()) throw RequestError{"bad_request", "\"text\" must be a string"};
    action = env::parseActionText(s, req["text"].get<std::string>(), &error, &refusal);
    error = "text: " + error;
  } else if (req.contains("index")) {
    action = env::actionFromIndex(
        s.sc(), static_cast<int>(integerField(req, "index", INT32_MIN, INT32_MAX)));
    error = "index out of range 0.." + std::to_string(env::actionSpaceSize(s.sc()) - 1);
  } else {
    action = env::parseActionJson(s, req["action"], &error, &refusal);
    error = "action" + error;
  }
  if (refusal) throw RequestError::refused(*refusal);
  if (!action) throw RequestError{"bad_request", error};
  if (const auto why = env::explainIllegal(s, *action))
    throw RequestError::refused(*why, env::actionText(s, *action));
  return {.chance = false, .action = *action, .outcome = 0};
}

}  // namespace

json PlayedGame::play(const env::RecordedPly& ply) {
  env::GameState& s = *state_;
  env::EventLog log;
  json out;
  if (ply.chance) {
    env::applyChance(s, ply.outcome, &log);
  } else {
    json applied = env::actionJson(s, ply.action);
    // The unit the action concerns: the one placed, the cavalry holding, or the one on its hex.
    const env::Action a = ply.action;
    const int actor = a.kind == env::ActionKind::kPlace  ? env::nextUnitToPlace(s)
                      : a.kind == env::ActionKind::kHold ? s.charge_window
                      : a.cell != env::kNoCell           ? s.unitAt(a.cell)
                                                         : -1;
    std::string& agent = record_.agents[static_cast<size_t>(s.side)];
    if (agent.empty()) agent = "human";
    env::applyAction(s, ply.action, &log);
    // A move of a unit the bound side may not see is reported without its hexes (S-4).
    if (bound_side_ >= 0 && actor >= 0 && env::hiddenFrom(s, actor, bound_side_))
      applied = {{"type", applied["type"]}, {"hidden", true}};
    out["applied"] = applied;
  }
  // The record's own next ply (a takeback played again the same way) keeps the plies after it;
  // another ply replaces them, a takeback the record notes.
  if (ply_ < record_.plies.size() && !(record_.plies[ply_] == ply)) {
    record_.takebacks.push_back({ply_, record_.plies.size() - ply_});
    record_.plies.resize(ply_);
  }
  if (ply_ == record_.plies.size()) record_.plies.push_back(ply);
  ++ply_;
  out["events"] = eventsJson(s, log, bound_side_);
  out["status"] = status();
  out["ply"] = ply_;
  out["plies"] = record_.plies.size();
  if (s.isTerminal()) out["result"] = resultJson(s);
  return out;
}

void PlayedGame::recordAgent(const std::string& spec) {
  record_.agents[static_cast<size_t>(position().side)] = spec;
}

bool PlayedGame::decisionsHidden() const {
  return bound_side_ >= 0 && env::decisionsHiddenFrom(position(), bound_side_);
}

json PlayedGame::apply(const json& req) { return play(requestedPly(position(), req)); }

json PlayedGame::roll() {
  const env::GameState& s = position();
  if (!s.isChanceNode())
    throw RequestError::refused({R::kNoChancePending, "RNG-5", "no chance event is pending"});
  int value = 0;
  if (record_.free_rerolls) {
    value = env::sampleChance(s, rng_);
  } else {  // the position's own dice: the same whenever the game comes back to it
    env::Rng dice(env::deriveSeed(seed_, ply_, s.hash));
    value = env::sampleChance(s, dice);
  }
  json out = play({.chance = true, .action = {}, .outcome = value});
  out["outcome"] = value;
  return out;
}

json PlayedGame::setState(const json& req) {
  const env::GameState& current = position();
  if (!req.contains("state")) throw RequestError{"bad_request", "missing \"state\""};
  state_ = env::stateFromJson(current.sc(), req["state"], "state");
  record_.start = state_;
  record_.plies.clear();
  record_.takebacks.clear();
  ply_ = 0;
  return {{"status", status()}, {"ply", ply_}};
}

void PlayedGame::rewind(size_t plies) {
  state_ = env::replayRecord(record_, plies);
  ply_ = plies;
}

json PlayedGame::undo(const json& req) {
  position();
  if (req.contains("plies") && req.contains("to"))
    throw RequestError{"bad_request", "give \"plies\" (how many) or \"to\" (a ply), not both"};
  size_t to = ply_;
  if (req.contains("to")) {
    to = static_cast<size_t>(integerField(req, "to", 0, static_cast<int64_t>(ply_)));
  } else if (req.contains("plies")) {
    to = ply_ - static_cast<size_t>(integerField(req, "plies", 0, static_cast<int64_t>(ply_)));
  } else {  // the last action and the dice after it
    while (to > 0 && record_.plies[to - 1].chance) --to;
    if (to == 0) throw RequestError{"bad_request", "no action to take back since the game's start"};
    --to;
  }
  const size_t taken_back = ply_ - to;
  rewind(to);
  if (record_.plies.size() > to) record_.takebacks.push_back({to, record_.plies.size() - to});
  record_.plies.resize(to);
  return {{"taken_back", taken_back}, {"ply", ply_}, {"status", status()}};
}

json PlayedGame::saveGame() const {
  if (bound_side_ >= 0 && env::hidesAny(position(), bound_side_)) {
    throw RequestError::refused({R::kHiddenInformation, "S-4",
                                 "the record shows where the first player placed his units; it "
                                 "can be saved from game turn 2"});
  }
  return {{"record", env::recordToJson(record_)}, {"ply", ply_}};
}

json PlayedGame::loadGame(const json& req, bool files) {
  if (req.contains("record") == req.contains("path")) {
    throw RequestError{"bad_request",
                       "give exactly one of \"record\" (a game record object) or \"path\" (file)"};
  }
  env::GameRecord loaded;
  if (req.contains("record")) {
    loaded = env::recordFromJson(req["record"], "record");
  } else {
    if (!files)
      throw RequestError{"bad_request", "this server reads no files: send the \"record\""};
    if (!req["path"].is_string() || req["path"].get<std::string>().find('\0') != std::string::npos)
      throw RequestError{"bad_request", "\"path\" must be a file name"};
    loaded = env::loadRecordFile(req["path"].get<std::string>());
  }
  const size_t ply = req.contains("ply")
                         ? static_cast<size_t>(integerField(
                               req, "ply", 0, static_cast<int64_t>(loaded.plies.size())))
                         : loaded.plies.size();
  scenario_ = loaded.scenario;
  record_ = std::move(loaded);
  rng_ = env::Rng(record_.seed);
  seed_ = record_.seed;
  rewind(ply);
  json out = scenarioInfo();
  out.erase("scenario");
  out["plies"] = record_.plies.size();
  out["ply"] = ply_;
  out["status"] = status();
  return out;
}

json PlayedGame::replay(const json& req) {
  position();
  if (!req.contains("ply")) throw RequestError{"bad_request", "give \"ply\": 0..plies"};
  const auto ply =
      static_cast<size_t>(integerField(req, "ply", 0, static_cast<int64_t>(record_.plies.size())));
  env::EventLog log;
  state_ = env::replayRecord(record_, ply, &log);
  ply_ = ply;
  json out = {{"ply", ply_}, {"plies", record_.plies.size()}, {"status", status()}};
  out["events"] = eventsJson(*state_, log, bound_side_);
  if (state_->isTerminal()) out["result"] = resultJson(*state_);
  return out;
}

const env::GameState& PlayedGame::position() const {
  if (!state_) throw RequestError{"no_game", "no scenario loaded; send {\"cmd\":\"load\"} first"};
  return *state_;
}

json PlayedGame::load(const json& req, bool files) {
  const int sources = static_cast<int>(req.contains("scenario")) +
                      static_cast<int>(req.contains("path")) +
                      static_cast<int>(req.contains("json"));
  if (sources != 1) {
    throw RequestError{"bad_request",
                       "give exactly one of \"scenario\" (built-in name), \"path\" (file) or "
                       "\"json\" (inline scenario object)"};
  }
  bool free_rerolls = false;
  if (req.contains("free_rerolls")) {
    if (!req["free_rerolls"].is_boolean())
      throw RequestError{"bad_request", "\"free_rerolls\" must be true or false"};
    free_rerolls = req["free_rerolls"].get<bool>();
  }
  std::shared_ptr<const env::Scenario> sc;
  if (req.contains("json")) {
    if (!req["json"].is_object())
      throw RequestError{"bad_request", "\"json\" must be a scenario object"};
    sc = env::parseScenario(req["json"].dump(), "<inline>");
  } else {
    const char* key = req.contains("scenario") ? "scenario" : "path";
    if (!req[key].is_string())
      throw RequestError{"bad_request", std::string("\"") + key + "\" must be a string"};
    const std::string name = req[key].get<std::string>();
    if (name.find('\0') != std::string::npos)
      throw RequestError{"bad_request", std::string("\"") + key + "\" contains a NUL character"};
    if (req.contains("path") && !files)
      throw RequestError{"bad_request",
                         "this server reads no files: send the scenario as \"json\""};
    if (!req.contains("path") && !files && !isBuiltinScenario(name))
      throw RequestError{"bad_request", "\"" + name + "\" is not a built-in scenario"};
    sc = req.contains("path") ? env::loadScenarioFile(name) : env::loadScenario(name);
  }
  if (req.contains("seed")) {
    if (!req["seed"].is_number_unsigned())
      throw RequestError{"bad_request", "\"seed\" must be a non-negative integer"};
    rng_ = env::Rng(req["seed"].get<uint64_t>());
    seed_ = req["seed"].get<uint64_t>();
  }
  env::EventLog log;
  scenario_ = sc;
  state_ = env::newGame(*scenario_, &log);
  record_ = env::GameRecord{};
  record_.scenario = scenario_;
  record_.seed = seed_;
  record_.free_rerolls = free_rerolls;
  ply_ = 0;
  json out = scenarioInfo();
  out.erase("scenario");
  out["events"] = eventsJson(*state_, log, bound_side_);
  out["status"] = status();
  return out;
}

json PlayedGame::scenarioInfo() const {
  const env::Scenario& sc = *scenario_;
  json units = json::array();
  for (const env::UnitInfo& u : sc.units()) {
    json j = {{"id", u.id},
              {"name", u.name},
              {"side", env::sideColor(u.side)},
              {"type", env::unitTypeName(u.type)},
              {"vc", u.vc},
              {"mo", u.mo},
              {"ma", u.ma}};
    if (u.corps >= 0) j["corps"] = sc.corps()[static_cast<size_t>(u.corps)].id;
    if (env::isArtillery(u.type)) {
      j["vt"] = u.vt;
      j["range"] = u.range;
    }
    if (env::isGeneral(u.type)) j["radius"] = u.radius;
    units.push_back(j);
  }
  return {{"name", sc.name()},
          {"title", sc.title()},
          {"turns", sc.turns()},
          {"width", sc.width()},
          {"height", sc.height()},
          {"cells", sc.numCells()},
          {"sides", {sc.sideNames()[0], sc.sideNames()[1]}},
          {"units", units},
          {"rules", json::parse(env::ruleSwitchesJson(sc.rules()))},
          {"action_space", {{"size", env::actionSpaceSize(sc)}, {"planes", env::actionPlanes(sc)}}},
          {"scenario", json::parse(sc.sourceText())}};
}

json PlayedGame::status() const { return statusJson(position()); }

json statusJson(const env::GameState& s) {
  return {{"turn", s.turn},
          {"side", env::sideColor(s.side)},
          {"phase", env::phaseName(s.phase)},
          {"chance", s.isChanceNode()},
          {"terminal", s.isTerminal()}};
}

const env::GameState& PlayedGame::position(const json& req,
                                           std::optional<env::GameState>* own) const {
  const env::GameState& s = position();
  if (req.contains("state")) {
    own->emplace(env::stateFromJson(s.sc(), req["state"], "state"));
    return **own;
  }
  if (bound_side_ < 0 || !env::hidesAny(s, bound_side_)) return s;
  own->emplace(env::publicView(s, bound_side_));
  return **own;
}

env::GameState PlayedGame::visibleGame() const {
  const env::GameState& s = position();
  return bound_side_ < 0 ? s : env::publicView(s, bound_side_);
}

json PlayedGame::bind(const json& req) {
  if (!req.contains("side") || !req["side"].is_string() ||
      (req["side"] != "blue" && req["side"] != "orange")) {
    throw RequestError{"bad_request", "give \"side\": \"blue\" or \"orange\""};
  }
  const int side = req["side"] == "blue" ? 0 : 1;
  if (bound_side_ >= 0 && bound_side_ != side) {
    throw RequestError{
        "bad_request",
        "the session serves " + std::string(env::sideColor(bound_side_)) + " already, for good"};
  }
  bound_side_ = side;
  return {{"side", env::sideColor(side)}};
}

json PlayedGame::stateReply() const {
  const env::GameState view = visibleGame();
  json hidden = json::array();
  for (int u = 0; u < view.num_units; ++u) {
    if (bound_side_ >= 0 && env::hiddenFrom(position(), u, bound_side_))
      hidden.push_back(view.sc().unit(u).id);
  }
  return {{"state", env::stateToJson(view)}, {"hidden", hidden}};
}

}  // namespace morne::engine
