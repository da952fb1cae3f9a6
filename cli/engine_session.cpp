#include "cli/engine_session.h"

#include <cstdint>
#include <exception>

#include "cli/commands.h"
#include "cli/request_error.h"
#include "env/action.h"
#include "env/error.h"
#include "env/io/ascii_map.h"
#include "env/io/event_text.h"
#include "env/io/json_nesting.h"
#include "env/io/notation.h"
#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/reachable.h"
#include "env/rules.h"

namespace morne::cli {

using nlohmann::json;

namespace {

constexpr const char* kCommands[] = {
    "protocol",       "load",    "scenario", "state",     "set_state", "legal",
    "apply",          "chance",  "roll",     "reachable", "los",       "preview_fire",
    "preview_combat", "genmove", "result",   "show",      "help",      "quit"};

// Where the protocol is described, for "help" and for lines that are not JSON.
constexpr const char* kProtocolDocs = "docs/protocol.md";

// The list of commands as text: "protocol, load, ...".
std::string commandList() {
  std::string known;
  for (const char* c : kCommands) known += (known.empty() ? "" : ", ") + std::string(c);
  return known;
}

// The longest message, path or id a reply carries: an error never echoes a huge input back.
constexpr size_t kMaxEchoBytes = 1000;
constexpr size_t kMaxProblemsListed = 100;

std::string shortened(const std::string& text) {
  if (text.size() <= kMaxEchoBytes) return text;
  return text.substr(0, kMaxEchoBytes) + "... (" + std::to_string(text.size() - kMaxEchoBytes) +
         " more bytes)";
}

json problemsJson(const ValidationError& e) {
  json out = json::array();
  for (const Problem& p : e.problems()) {
    if (out.size() == kMaxProblemsListed) {
      out.push_back({{"path", ""},
                     {"message", std::to_string(e.problems().size() - kMaxProblemsListed) +
                                     " more problems not listed"}});
      break;
    }
    out.push_back({{"path", shortened(p.path)}, {"message", shortened(p.message)}});
  }
  return out;
}

// The integer value of a request field, or a bad_request naming it: no truncation, no wrap.
int64_t integerField(const json& req, const char* key, int64_t lo, int64_t hi) {
  const json& v = req[key];
  const bool in_range = v.is_number_unsigned()  ? v.get<uint64_t>() <= static_cast<uint64_t>(hi)
                        : v.is_number_integer() ? v.get<int64_t>() >= lo && v.get<int64_t>() <= hi
                                                : false;
  if (!v.is_number_integer() || !in_range) {
    throw RequestError{"bad_request", std::string("\"") + key + "\" must be an integer in " +
                                          std::to_string(lo) + ".." + std::to_string(hi)};
  }
  return v.get<int64_t>();
}

json eventsJson(const env::Scenario& sc, const env::EventLog& log) {
  json out = json::array();
  for (const env::Event& e : log) {
    json j = env::eventJson(sc, e);
    j["text"] = env::eventText(sc, e);
    out.push_back(j);
  }
  return out;
}

}  // namespace

EngineSession::EngineSession(uint64_t seed) : rng_(seed), agent_seed_(seed) {}

const env::GameState& EngineSession::game() const {
  if (!state_) throw RequestError{"no_game", "no scenario loaded; send {\"cmd\":\"load\"} first"};
  return *state_;
}

bool readRequestLine(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  for (;;) {
    const int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      if (line.empty()) return false;
      break;
    }
    if (c == '\n') break;
    if (line.size() <= kMaxRequestBytes) line.push_back(static_cast<char>(c));
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

std::string EngineSession::handle(const std::string& line, bool* quit) {
  json reply;
  json id = nullptr;
  try {
    if (line.size() > kMaxRequestBytes) {
      throw RequestError{"bad_request", "request line over " + std::to_string(kMaxRequestBytes) +
                                            " bytes; send a scenario this large by \"path\""};
    }
    if (const size_t depth = env::jsonNestingDepth(line); depth > env::kMaxJsonNesting) {
      throw RequestError{"bad_request", "arrays and objects nested " + std::to_string(depth) +
                                            " levels deep; at most " +
                                            std::to_string(env::kMaxJsonNesting) + " are allowed"};
    }
    json req;
    try {
      req = json::parse(line);
    } catch (const json::parse_error& e) {
      const size_t first = line.find_first_not_of(" \t");
      const std::string word = first == std::string::npos
                                   ? std::string()
                                   : line.substr(first, line.find_last_not_of(" \t") + 1 - first);
      if (!word.empty() && word.size() <= 32 &&
          word.find_first_of(" {}[]\"") == std::string::npos) {
        // A bare word ("help", "legal"): say how requests look instead of quoting the parser.
        throw RequestError{"parse_error",
                           "\"" + word +
                               "\" is not a JSON request: send one JSON object per line, such as "
                               "{\"cmd\":\"legal\"} or {\"cmd\":\"help\"}; commands: " +
                               commandList() + "; the protocol is described in " + kProtocolDocs};
      }
      throw RequestError{"parse_error", std::string("malformed JSON: ") + e.what()};
    } catch (const json::exception& e) {  // a number too large for a double, such as 1e999
      throw RequestError{"bad_request", std::string("unusable JSON value: ") + e.what()};
    }
    if (!req.is_object()) throw RequestError{"bad_request", "a request must be a JSON object"};
    if (req.contains("id")) id = req["id"];
    if (!req.contains("cmd") || !req["cmd"].is_string()) {
      throw RequestError{"bad_request", "missing \"cmd\" (a string naming the command)"};
    }
    reply = dispatch(req, quit);
    reply["ok"] = true;
    reply["cmd"] = req["cmd"];
  } catch (const RequestError& e) {
    reply = {{"ok", false}, {"error", {{"code", e.code}, {"message", shortened(e.what())}}}};
    if (!e.details.is_null()) reply["error"]["details"] = e.details;
  } catch (const ValidationError& e) {
    reply = {{"ok", false},
             {"error",
              {{"code", "invalid_input"},
               {"message", shortened(e.what())},
               {"details", problemsJson(e)}}}};
  } catch (const InternalError& e) {
    reply = {{"ok", false},
             {"error", {{"code", "internal_error"}, {"message", shortened(e.what())}}}};
  } catch (const Error& e) {
    reply = {{"ok", false},
             {"error", {{"code", "invalid_input"}, {"message", shortened(e.what())}}}};
  } catch (const std::exception& e) {
    reply = {{"ok", false},
             {"error", {{"code", "internal_error"}, {"message", shortened(e.what())}}}};
  }
  if (!id.is_null()) {
    if (id.is_string() || id.is_number() || id.is_boolean() || id.dump().size() <= kMaxEchoBytes) {
      reply["id"] = id.is_string() ? json(shortened(id.get<std::string>())) : id;
    } else {
      reply["id"] = shortened(id.dump());
    }
  }
  return reply.dump(-1, ' ', false, json::error_handler_t::replace);
}

json EngineSession::dispatch(const json& req, bool* quit) {
  const std::string cmd = req["cmd"].get<std::string>();
  if (cmd == "protocol") {
    expectKeys(req, {});
    return {{"protocol", "morne-engine"},
            {"version", kProtocolVersion},
            {"engine", versionLine()},
            {"commands", kCommands}};
  }
  if (cmd == "help") {
    expectKeys(req, {});
    return {{"commands", kCommands},
            {"example", R"({"cmd":"load","scenario":"duel"})"},
            {"docs", kProtocolDocs}};
  }
  if (cmd == "load") return load(req);
  if (cmd == "quit") {
    expectKeys(req, {});
    *quit = true;
    return json::object();
  }
  if (cmd == "scenario") {
    expectKeys(req, {});
    game();
    return scenarioInfo();
  }
  if (cmd == "state") {
    expectKeys(req, {});
    return {{"state", env::stateToJson(game())}};
  }
  if (cmd == "set_state") {
    setState(req);
    return {{"status", status()}};
  }
  if (cmd == "legal") {
    expectKeys(req, {});
    return legal();
  }
  if (cmd == "apply") return apply(req);
  if (cmd == "chance") {
    expectKeys(req, {});
    return chance();
  }
  if (cmd == "roll") {
    expectKeys(req, {});
    return roll();
  }
  if (cmd == "reachable") return reachable(req);
  if (cmd == "los") return lineOfSight(req);
  if (cmd == "preview_fire") return previewFire(req);
  if (cmd == "preview_combat") return previewCombat(req);
  if (cmd == "genmove") return genmove(req);
  if (cmd == "result") {
    expectKeys(req, {});
    return result();
  }
  if (cmd == "show") {
    expectKeys(req, {});
    return {{"text", env::renderMap(game())}};
  }
  throw RequestError{"unknown_command", "unknown command \"" + cmd + "\" (known: " + commandList() +
                                            "; see " + kProtocolDocs + ")"};
}

json EngineSession::load(const json& req) {
  expectKeys(req, {"scenario", "path", "json", "seed"});
  const int sources = static_cast<int>(req.contains("scenario")) +
                      static_cast<int>(req.contains("path")) +
                      static_cast<int>(req.contains("json"));
  if (sources != 1) {
    throw RequestError{"bad_request",
                       "give exactly one of \"scenario\" (built-in name), \"path\" (file) or "
                       "\"json\" (inline scenario object)"};
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
    sc = req.contains("path") ? env::loadScenarioFile(name) : env::loadScenario(name);
  }
  if (req.contains("seed")) {
    if (!req["seed"].is_number_unsigned())
      throw RequestError{"bad_request", "\"seed\" must be a non-negative integer"};
    rng_ = env::Rng(req["seed"].get<uint64_t>());
    agent_seed_ = req["seed"].get<uint64_t>();
  }
  agents_.clear();
  env::EventLog log;
  scenario_ = sc;
  state_ = env::newGame(*scenario_, &log);
  json out = scenarioInfo();
  out.erase("scenario");
  out["events"] = eventsJson(*scenario_, log);
  out["status"] = status();
  return out;
}

json EngineSession::scenarioInfo() const {
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

json EngineSession::status() const {
  const env::GameState& s = game();
  return {{"turn", s.turn},
          {"side", env::sideColor(s.side)},
          {"phase", env::phaseName(s.phase)},
          {"chance", s.isChanceNode()},
          {"terminal", s.isTerminal()}};
}

void EngineSession::setState(const json& req) {
  expectKeys(req, {"state"});
  const env::GameState& current = game();
  if (!req.contains("state")) throw RequestError{"bad_request", "missing \"state\""};
  state_ = env::stateFromJson(current.sc(), req["state"], "state");
}

json EngineSession::legal() const {
  const env::GameState& s = game();
  env::ActionList list;
  env::legalActions(s, list);
  json actions = json::array();
  for (const env::Action& a : list) {
    actions.push_back({{"action", env::actionJson(s, a)},
                       {"text", env::actionText(s, a)},
                       {"index", env::actionIndex(s.sc(), a)}});
  }
  return {{"actions", actions}, {"count", list.size()}, {"status", status()}};
}

json EngineSession::apply(const json& req) {
  expectKeys(req, {"action", "text", "index", "outcome"});
  game();
  env::GameState& s = *state_;
  const int given =
      static_cast<int>(req.contains("action")) + static_cast<int>(req.contains("text")) +
      static_cast<int>(req.contains("index")) + static_cast<int>(req.contains("outcome"));
  if (given != 1) {
    throw RequestError{"bad_request",
                       "give exactly one of \"action\" (object), \"text\", \"index\" or "
                       "\"outcome\" (at a chance event)"};
  }
  env::EventLog log;
  json out;
  if (req.contains("outcome")) {
    if (!s.isChanceNode()) throw RequestError{"illegal_action", "no chance event is pending"};
    const int value = static_cast<int>(integerField(req, "outcome", INT32_MIN, INT32_MAX));
    env::ChanceList outcomes;
    env::chanceOutcomes(s, outcomes);
    bool valid = false;
    for (const env::ChanceOutcome& o : outcomes) valid = valid || o.value == value;
    if (!valid) {
      throw RequestError{"illegal_action", "outcome " + std::to_string(value) +
                                               " is not possible; "
                                               "the pending " +
                                               std::string(env::chanceKindName(s.pending.kind)) +
                                               " draws 1.." + std::to_string(outcomes.size())};
    }
    env::applyChance(s, value, &log);
  } else {
    if (s.isChanceNode()) {
      throw RequestError{"illegal_action",
                         "a " + std::string(env::chanceKindName(s.pending.kind)) +
                             " is pending: send {\"cmd\":\"apply\",\"outcome\":N} "
                             "or {\"cmd\":\"roll\"} first"};
    }
    std::optional<env::Action> action;
    std::string error;
    if (req.contains("text")) {
      if (!req["text"].is_string()) throw RequestError{"bad_request", "\"text\" must be a string"};
      action = env::parseActionText(s, req["text"].get<std::string>(), &error);
      if (!action) throw RequestError{"bad_request", "text: " + error};
    } else if (req.contains("index")) {
      action = env::actionFromIndex(
          s.sc(), static_cast<int>(integerField(req, "index", INT32_MIN, INT32_MAX)));
      if (!action) {
        throw RequestError{"bad_request", "index out of range 0.." +
                                              std::to_string(env::actionSpaceSize(s.sc()) - 1)};
      }
    } else {
      action = env::parseActionJson(s, req["action"], &error);
      if (!action) throw RequestError{"bad_request", "action" + error};
    }
    if (const std::string why = env::explainIllegal(s, *action); !why.empty()) {
      throw RequestError{"illegal_action", env::actionText(s, *action) + ": " + why};
    }
    out["applied"] = env::actionJson(s, *action);
    env::applyAction(s, *action, &log);
  }
  out["events"] = eventsJson(s.sc(), log);
  out["status"] = status();
  if (s.isTerminal()) out["result"] = result();
  return out;
}

json EngineSession::chance() const {
  const env::GameState& s = game();
  if (!s.isChanceNode()) return {{"chance", false}};
  env::ChanceList outcomes;
  env::chanceOutcomes(s, outcomes);
  json list = json::array();
  for (const env::ChanceOutcome& o : outcomes) {
    list.push_back(
        {{"value", o.value}, {"num", o.num}, {"den", o.den}, {"probability", o.probability()}});
  }
  json event = {{"kind", std::string(env::chanceKindName(s.pending.kind))},
                {"unit", s.sc().unit(s.pending.unit).id}};
  if (s.pending.target >= 0) event["target"] = s.sc().unit(s.pending.target).id;
  return {{"chance", true}, {"event", event}, {"outcomes", list}};
}

json EngineSession::roll() {
  game();
  env::GameState& s = *state_;
  if (!s.isChanceNode()) throw RequestError{"illegal_action", "no chance event is pending"};
  const int value = env::sampleChance(s, rng_);
  env::EventLog log;
  env::applyChance(s, value, &log);
  json out = {{"outcome", value}, {"events", eventsJson(s.sc(), log)}, {"status", status()}};
  if (s.isTerminal()) out["result"] = result();
  return out;
}

json EngineSession::reachable(const json& req) const {
  expectKeys(req, {"unit"});
  const env::GameState& s = game();
  const env::Scenario& sc = s.sc();
  const int u = unitArgument(req, "unit");
  json hexes = json::array();
  for (const env::ReachableHex& r : env::reachableHexes(s, u)) {
    json path = json::array();
    for (env::CellId c : r.path) path.push_back(sc.label(c));
    hexes.push_back({{"hex", sc.label(r.cell)},
                     {"cost", r.cost},
                     {"stops", r.stops},
                     {"through_marsh", r.through_marsh},
                     {"path", path}});
  }
  return {{"unit", sc.unit(u).id}, {"mp", s.unit(u).mp}, {"hexes", hexes}};
}

json EngineSession::result() const {
  const env::GameState& s = game();
  const env::GameResult r = env::gameResult(s);
  return {{"final", s.isTerminal()},
          {"vp", {{"blue", r.vp[0]}, {"orange", r.vp[1]}}},
          {"winner", r.winner == env::kNoSide ? json(nullptr) : json(env::sideColor(r.winner))},
          {"level", r.level},
          {"level_name", env::victoryLevelName(r.level)}};
}

}  // namespace morne::cli
