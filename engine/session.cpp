#include "engine/session.h"

#include <cmath>
#include <cstdint>
#include <exception>

#include "core/version.h"
#include "engine/position_queries.h"
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

json resultReply(const env::GameState& s, const json&) { return resultJson(s); }

}  // namespace

json EngineSession::ask(const json& req, PositionQuery question) const {
  std::optional<env::GameState> own;
  return question(game_.position(req, &own), req);
}

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
       {"scenario", "path", "json", "seed", "free_rerolls"},
       "start a game of a scenario",
       [](S& e, const json& r) {
         e.agents_.clear();
         return e.game_.load(r, e.limits_.files);
       }},
      {"scenarios",
       {},
       "the built-in scenarios: name, title, turns, sides",
       [](S&, const json&) { return builtinScenarioList(); }},
      {"models",
       {},
       "the networks shipped with morne, by name (agent az:model=NAME)",
       [](S&, const json&) { return shippedModelList(); }},
      {"scenario",
       {},
       "the loaded scenario's summary and document (to draw the map)",
       [](S& e, const json&) {
         e.game_.position();
         return e.game_.scenarioInfo();
       }},
      {"state",
       {},
       "the position in the saved-state format",
       [](S& e, const json&) { return e.game_.stateReply(); }},
      {"set_state",
       {"state"},
       "replace the position after validating it (a new record starts)",
       [](S& e, const json& r) { return e.game_.setState(r); }},
      {"legal", {"state"}, "every legal action", onPosition<legalReply>},
      {"apply",
       {"action", "text", "index", "outcome"},
       "play an action or a chance outcome",
       [](S& e, const json& r) { return e.game_.apply(r); }},
      {"chance",
       {"state"},
       "the pending chance event and its exact outcomes",
       onPosition<chanceReply>},
      {"roll",
       {},
       "draw the pending chance event with the session's seeded dice",
       [](S& e, const json&) { return e.game_.roll(); }},
      {"undo",
       {"plies", "to"},
       "take back plies (by default the last action and its dice)",
       [](S& e, const json& r) { return e.game_.undo(r); }},
      {"save", {}, "the game record", [](S& e, const json&) { return e.game_.saveGame(); }},
      {"bind",
       {"side"},
       "serve one side from now on: hide what it may not see (S-4)",
       [](S& e, const json& r) { return e.game_.bind(r); }},
      {"load_game",
       {"record", "path", "ply"},
       "start from a game record, at any of its plies",
       [](S& e, const json& r) {
         e.agents_.clear();
         return e.game_.loadGame(r, e.limits_.files);
       }},
      {"replay",
       {"ply"},
       "move to any ply of the game record, forward or back",
       [](S& e, const json& r) { return e.game_.replay(r); }},
      {"reachable",
       {"unit", "state"},
       "every hex a unit can reach this phase, with costs",
       onPosition<reachableReply>},
      {"zoc",
       {"state"},
       "the hexes each side's units control (MV-ZOC-1)",
       onPosition<zoneOfControlReply>},
      {"los",
       {"from", "to", "state"},
       "line of sight between two hexes",
       onPosition<lineOfSightReply>},
      {"preview_fire",
       {"gun", "target", "state"},
       "a bombardment's factors and results",
       onPosition<previewFireReply>},
      {"preview_combat",
       {"attacker", "defender", "state"},
       "an attack's factors and results",
       onPosition<previewCombatReply>},
      {"preview_step",
       {"action", "text", "state"},
       "a movement step's cost and the reaction fire it draws",
       onPosition<previewStepReply>},
      {"genmove",
       {"agent", "ms", "seed", "play", "top", "state"},
       "an agent's choice, explained",
       [](S& e, const json& r) { return e.genmove(r); }},
      {"analyze",
       {"agent", "ms", "period_ms", "top", "play", "state"},
       "search a position and report every period_ms until ms or stop (play: then move)",
       [](S& e, const json& r) { return e.analyze(r); }},
      {"result", {"state"}, "victory points, winner and level", onPosition<resultReply>},
      {"charts",
       {},
       "the combat results table and the terrain costs of the loaded scenario",
       onPosition<chartsReply>},
      {"show",
       {},
       "the ASCII map",
       [](S& e, const json&) -> json {
         return {{"text", env::renderMap(e.game_.visibleGame())}};
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
    : game_(seed), sink_(std::move(sink)), limits_(limits) {}

EngineSession::~EngineSession() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    waiting_.clear();
    waiting_bytes_ = 0;
  }
  search_thread_.close();
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
  if (cmd == "stop") stop_ = true;
  if (cmd == "quit") {  // earlier requests finish first; a search without an end is stopped
    quit_ = true;
    if (search_until_stop_) stop_ = true;
  }
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
  searching_ = true;
  search_until_stop_ = job->until_stop;
  deferred_ = true;
  auto shared = std::make_shared<std::unique_ptr<SearchJob>>(std::move(job));
  auto result = std::make_shared<json>();
  search_thread_.start(
      [this, shared, result] {  // without the lock
        const bool slot = limits_.slots && limits_.slots->acquire(stop_);
        try {
          *result = runSearch(**shared);
        } catch (...) {
          *result = errorReply(std::current_exception());
        }
        if (slot) limits_.slots->release();
      },
      [this, shared, result] {  // with the lock
        finishSearch(**shared, std::move(*result));
        searching_ = false;
        stop_ = false;
        processWaiting();
        if (!searching_) idle_.notify_all();
      });
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

}  // namespace morne::engine
