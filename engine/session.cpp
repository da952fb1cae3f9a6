#include "engine/session.h"

#include <cmath>
#include <cstdint>
#include <exception>

#include "core/version.h"
#include "engine/reply_json.h"
#include "engine/request_error.h"
#include "engine/search_slots.h"
#include "env/error.h"
#include "env/io/ascii_map.h"
#include "env/io/json_nesting.h"
#include "env/io/scenario_json.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/rules.h"
#include "env/visibility.h"

namespace morne::engine {

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

bool isBuiltinScenario(const std::string& name) {
  for (const env::BuiltinScenario& b : env::builtinScenarios()) {
    if (name == b.name) return true;
  }
  return false;
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
                 {"engine", core::versionLine()},
                 {"commands", commandNames()}};
       }},
      {"load",
       {"scenario", "path", "json", "seed"},
       "start a game of a scenario",
       [](S& e, const json& r) { return e.load(r); }},
      {"scenarios",
       {},
       "the built-in scenarios: name, title, turns, sides",
       [](S&, const json&) { return builtinScenarioList(); }},
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
       [](S& e, const json&) { return e.stateReply(); }},
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
      {"bind",
       {"side"},
       "serve one side from now on: hide what it may not see (S-4)",
       [](S& e, const json& r) { return e.bind(r); }},
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
      {"analyze",
       {"agent", "ms", "period_ms", "top", "play", "state"},
       "search a position and report every period_ms until ms or stop (play: then move)",
       [](S& e, const json& r) { return e.analyze(r); }},
      {"result",
       {"state"},
       "victory points, winner and level",
       [](S& e, const json& r) { return e.result(r); }},
      {"show",
       {},
       "the ASCII map",
       [](S& e, const json&) -> json {
         return {{"text", env::renderMap(e.visibleGame())}};
       }},
      {"help",
       {},
       "every command with its fields and what it does",
       [](S& e, const json&) { return e.help(); }},
      {"stop",
       {},
       "end the search in progress (genmove, analyze) with what it has found",
       [](S&, const json&) { return json::object(); }},
      {"quit",
       {},
       "end the session",
       [](S& e, const json&) {
         e.quit_ = true;
         return json::object();
       }},
  };
  return kTable;
}

EngineSession::EngineSession(uint64_t seed, ReplySink sink, SessionLimits limits)
    : rng_(seed), agent_seed_(seed), sink_(std::move(sink)), limits_(limits) {}

EngineSession::~EngineSession() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    stop_ = true;
    waiting_.clear();
    waiting_bytes_ = 0;
  }
  wake_.notify_all();
  if (search_thread_.joinable()) search_thread_.join();
}

namespace {

// The "cmd" of a request line, or "" when the line is not a request (it is answered in its
// turn like any other).
std::string commandOf(const std::string& line) {
  if (line.size() > kMaxRequestBytes || env::jsonNestingDepth(line) > env::kMaxJsonNesting)
    return "";
  const json req = json::parse(line, nullptr, false);
  if (!req.is_object() || !req.contains("cmd") || !req["cmd"].is_string()) return "";
  return req["cmd"].get<std::string>();
}

}  // namespace

void EngineSession::submit(const std::string& line) {
  std::lock_guard lock(mutex_);
  if (quit_) return;  // nothing is served after "quit"
  if (!searching_) {
    process(line);
    return;
  }
  const std::string cmd = commandOf(line);
  if (cmd == "stop" || cmd == "quit") stop_ = true;
  if (cmd == "quit") quit_ = true;
  waiting_.push_back({line, false});
  waiting_bytes_ += line.size();
}

void EngineSession::submitReply(const std::string& reply_line) {
  std::lock_guard lock(mutex_);
  if (quit_) return;
  if (searching_) {
    waiting_.push_back({reply_line, true});
    waiting_bytes_ += reply_line.size();
  } else {
    reply(reply_line);
  }
}

void EngineSession::drain() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return !searching_ && waiting_.empty(); });
}

bool EngineSession::quitRequested() const {
  std::lock_guard lock(mutex_);
  return quit_;
}

EngineSession::Backlog EngineSession::backlog() const {
  std::lock_guard lock(mutex_);
  return {waiting_.size(), waiting_bytes_, searching_};
}

std::string EngineSession::handle(const std::string& line, bool* quit) {
  {
    std::lock_guard lock(mutex_);
    kept_replies_.clear();
  }
  submit(line);
  drain();
  std::lock_guard lock(mutex_);
  *quit = quit_;
  return kept_replies_.empty() ? std::string() : kept_replies_.back();
}

void EngineSession::reply(const std::string& line) {
  if (sink_) {
    sink_(line);
  } else {
    kept_replies_.push_back(line);
  }
}

void EngineSession::process(const std::string& line) {
  if (std::optional<std::string> r = answer(line)) reply(*r);
}

void EngineSession::processWaiting() {
  while (!waiting_.empty() && !searching_) {
    const Waiting next = std::move(waiting_.front());
    waiting_.pop_front();
    waiting_bytes_ -= next.text.size();
    if (next.is_reply) {
      reply(next.text);
      continue;
    }
    process(next.text);
    if (quit_ && commandOf(next.text) == "quit") {
      waiting_.clear();
      waiting_bytes_ = 0;
    }
  }
}

void EngineSession::startSearch(std::unique_ptr<SearchJob> job) {
  job_ = std::move(job);
  searching_ = true;
  deferred_ = true;
  if (!search_thread_.joinable()) search_thread_ = std::thread([this] { searchLoop(); });
  wake_.notify_all();
}

void EngineSession::searchLoop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return job_ != nullptr || closing_; });
    if (closing_) return;
    std::unique_ptr<SearchJob> job = std::move(job_);
    lock.unlock();
    const bool slot = limits_.slots && limits_.slots->acquire(stop_);
    json result;
    try {
      result = runSearch(*job);
    } catch (...) {
      result = errorReply(std::current_exception());
    }
    if (slot) limits_.slots->release();
    lock.lock();
    finishSearch(*job, std::move(result));
    searching_ = false;
    stop_ = false;
    processWaiting();
    if (!searching_) idle_.notify_all();
  }
}

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

std::optional<std::string> EngineSession::answer(const std::string& line) {
  json reply;
  json id = nullptr;
  deferred_ = false;
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
    if (const size_t nul = line.find('\0'); nul != std::string::npos) {
      throw RequestError{"parse_error",
                         "a NUL byte at byte " + std::to_string(nul) + " of the request"};
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
    if (req.contains("id")) {
      // An integer beyond 64 bits is parsed as a double: echoed, it would come back rounded.
      if (req["id"].is_number_float() && std::fabs(req["id"].get<double>()) >= 0x1p63 &&
          std::floor(req["id"].get<double>()) == req["id"].get<double>()) {
        throw RequestError{"bad_request",
                           "\"id\" is an integer beyond the 64-bit range, which cannot be echoed "
                           "exactly; use a string or a smaller integer"};
      }
      id = req["id"];
    }
    if (!req.contains("cmd") || !req["cmd"].is_string()) {
      throw RequestError{"bad_request", "missing \"cmd\" (a string naming the command)"};
    }
    request_id_ = req.contains("id") ? req["id"] : json(nullptr);
    reply = dispatch(req);
    if (deferred_) return std::nullopt;  // a search started: it replies when it ends
    reply["ok"] = true;
    reply["cmd"] = req["cmd"];
  } catch (...) {
    reply = errorReply(std::current_exception());
  }
  return replyLine(std::move(reply), id);
}

json EngineSession::errorReply(std::exception_ptr error) {
  json reply;
  try {
    std::rethrow_exception(error);
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
  } catch (...) {
    reply = {{"ok", false}, {"error", {{"code", "internal_error"}, {"message", "unknown error"}}}};
  }
  return reply;
}

std::string EngineSession::replyLine(json reply, const json& id) {
  if (!id.is_null()) {
    if (id.is_string() || id.is_number() || id.is_boolean() || id.dump().size() <= kMaxEchoBytes) {
      reply["id"] = id.is_string() ? json(shortened(id.get<std::string>())) : id;
    } else {
      reply["id"] = shortened(id.dump());
    }
  }
  return reply.dump(-1, ' ', false, json::error_handler_t::replace);
}

json EngineSession::dispatch(const json& req) {
  const std::string cmd = req["cmd"].get<std::string>();
  for (const Command& c : commands()) {
    if (cmd != c.name) continue;
    expectKeys(req, c.keys);
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
    if (req.contains("path") && !limits_.files)
      throw RequestError{"bad_request",
                         "this server reads no files: send the scenario as \"json\""};
    if (!req.contains("path") && !limits_.files && !isBuiltinScenario(name))
      throw RequestError{"bad_request", "\"" + name + "\" is not a built-in scenario"};
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
  out["events"] = eventsJson(*state_, log, bound_side_);
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
  if (req.contains("state")) {
    own->emplace(env::stateFromJson(s.sc(), req["state"], "state"));
    return **own;
  }
  if (bound_side_ < 0 || !env::hidesAny(s, bound_side_)) return s;
  own->emplace(env::publicView(s, bound_side_));
  return **own;
}

env::GameState EngineSession::visibleGame() const {
  const env::GameState& s = game();
  return bound_side_ < 0 ? s : env::publicView(s, bound_side_);
}

json EngineSession::bind(const json& req) {
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

}  // namespace morne::engine
