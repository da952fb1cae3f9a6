#include "cli/engine_session.h"

#include <cstdint>
#include <exception>

#include "cli/commands.h"
#include "cli/engine_json.h"
#include "cli/request_error.h"
#include "env/error.h"
#include "env/io/ascii_map.h"
#include "env/io/json_nesting.h"
#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/rules.h"

namespace morne::cli {

using nlohmann::json;

namespace {

// Where the protocol is described, for "help" and for lines that are not JSON.
constexpr const char* kProtocolDocs = "docs/protocol.md";

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

// The command names: "protocol, load, ...".
json commandNames() {
  json names = json::array();
  for (const EngineSession::Command& c : EngineSession::commands()) names.push_back(c.name);
  return names;
}

std::string commandList() {
  std::string known;
  for (const EngineSession::Command& c : EngineSession::commands())
    known += (known.empty() ? "" : ", ") + std::string(c.name);
  return known;
}

}  // namespace

std::span<const EngineSession::Command> EngineSession::commands() {
  using S = EngineSession;
  static const Command kTable[] = {
      {"protocol",
       {},
       "the protocol's name and version, the engine's version and the commands",
       [](S&, const json&) -> json {
         return {{"protocol", "morne-engine"},
                 {"version", kProtocolVersion},
                 {"engine", versionLine()},
                 {"commands", commandNames()}};
       }},
      {"load",
       {"scenario", "path", "json", "seed"},
       "start a game of a scenario",
       [](S& e, const json& r) { return e.load(r); }},
      {"scenario",
       {},
       "the loaded scenario's summary and document (to draw the map)",
       [](S& e, const json&) {
         e.game();
         return e.scenarioInfo();
       }},
      {"state",
       {},
       "the position in the saved-state format",
       [](S& e, const json&) -> json {
         return {{"state", env::stateToJson(e.game())}};
       }},
      {"set_state",
       {"state"},
       "replace the position after validating it (a new record starts)",
       [](S& e, const json& r) { return e.setState(r); }},
      {"legal", {"state"}, "every legal action", [](S& e, const json& r) { return e.legal(r); }},
      {"apply",
       {"action", "text", "index", "outcome"},
       "play an action or a chance outcome",
       [](S& e, const json& r) { return e.apply(r); }},
      {"chance",
       {"state"},
       "the pending chance event and its exact outcomes",
       [](S& e, const json& r) { return e.chance(r); }},
      {"roll",
       {},
       "draw the pending chance event with the session's seeded dice",
       [](S& e, const json&) { return e.roll(); }},
      {"undo",
       {"plies", "to"},
       "take back plies (by default the last action and its dice)",
       [](S& e, const json& r) { return e.undo(r); }},
      {"save", {}, "the game record", [](S& e, const json&) { return e.saveGame(); }},
      {"load_game",
       {"record", "path", "ply"},
       "start from a game record, at any of its plies",
       [](S& e, const json& r) { return e.loadGame(r); }},
      {"replay",
       {"ply"},
       "move to any ply of the game record, forward or back",
       [](S& e, const json& r) { return e.replay(r); }},
      {"reachable",
       {"unit", "state"},
       "every hex a unit can reach this phase, with costs",
       [](S& e, const json& r) { return e.reachable(r); }},
      {"zoc",
       {"state"},
       "the hexes each side's units control (MV-ZOC-1)",
       [](S& e, const json& r) { return e.zoneOfControl(r); }},
      {"los",
       {"from", "to", "state"},
       "line of sight between two hexes",
       [](S& e, const json& r) { return e.lineOfSight(r); }},
      {"preview_fire",
       {"gun", "target", "state"},
       "a bombardment's factors and results",
       [](S& e, const json& r) { return e.previewFire(r); }},
      {"preview_combat",
       {"attacker", "defender", "state"},
       "an attack's factors and results",
       [](S& e, const json& r) { return e.previewCombat(r); }},
      {"preview_step",
       {"action", "text", "state"},
       "a movement step's cost and the reaction fire it draws",
       [](S& e, const json& r) { return e.previewStep(r); }},
      {"genmove",
       {"agent", "ms", "seed", "play", "top", "state"},
       "an agent's choice, explained",
       [](S& e, const json& r) { return e.genmove(r); }},
      {"result",
       {"state"},
       "victory points, winner and level",
       [](S& e, const json& r) { return e.result(r); }},
      {"show",
       {},
       "the ASCII map",
       [](S& e, const json&) -> json {
         return {{"text", env::renderMap(e.game())}};
       }},
      {"help",
       {},
       "every command with its fields and what it does",
       [](S& e, const json&) { return e.help(); }},
      {"quit", {}, "end the session", [](S&, const json&) { return json::object(); }},
  };
  return kTable;
}

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
    if (e.refusal) {
      reply["error"]["reason"] = env::refusalCode(e.refusal->reason);
      reply["error"]["rule"] = e.refusal->rule.empty() ? json(nullptr) : json(e.refusal->rule);
    }
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
  for (const Command& c : commands()) {
    if (cmd != c.name) continue;
    expectKeys(req, c.keys);
    if (cmd == "quit") *quit = true;
    return c.run(*this, req);
  }
  throw RequestError{"unknown_command", "unknown command \"" + cmd + "\" (known: " + commandList() +
                                            "; see " + kProtocolDocs + ")"};
}

json EngineSession::help() const {
  json list = json::array();
  for (const Command& c : commands()) {
    list.push_back({{"cmd", c.name}, {"fields", c.keys}, {"summary", c.summary}});
  }
  json reasons = json::array();
  for (const env::RefusalReasonInfo& r : env::refusalReasons())
    reasons.push_back({{"reason", r.code}, {"meaning", r.meaning}});
  return {{"commands", commandNames()},
          {"details", list},
          {"refusal_reasons", reasons},
          {"example", R"({"cmd":"load","scenario":"duel"})"},
          {"docs", kProtocolDocs}};
}

json EngineSession::load(const json& req) {
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
  record_ = env::GameRecord{};
  record_.scenario = scenario_;
  record_.seed = agent_seed_;
  ply_ = 0;
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

json EngineSession::status() const { return statusOf(game()); }

json EngineSession::statusOf(const env::GameState& s) {
  return {{"turn", s.turn},
          {"side", env::sideColor(s.side)},
          {"phase", env::phaseName(s.phase)},
          {"chance", s.isChanceNode()},
          {"terminal", s.isTerminal()}};
}

const env::GameState& EngineSession::position(const json& req,
                                              std::optional<env::GameState>* own) const {
  const env::GameState& s = game();
  if (!req.contains("state")) return s;
  own->emplace(env::stateFromJson(s.sc(), req["state"], "state"));
  return **own;
}

}  // namespace morne::cli
