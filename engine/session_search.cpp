// The engine protocol's searches. "genmove": an agent named by its spec chooses the next action
// and reports how (search statistics, principal variation, the odds of the attacks it weighed);
// with "play": true the action is also applied, as "apply" would. "analyze": a search on a
// position that reports periodically until its time is up or "stop" (docs/protocol.md). Both
// run on the session's search thread, so that "stop" reaches them.

#include <algorithm>
#include <charconv>
#include <optional>

#include "agents/agent_kinds.h"
#include "agents/informed_decision.h"
#include "agents/model_library.h"
#include "agents/search_agent.h"
#include "engine/reply_json.h"
#include "engine/request_error.h"
#include "engine/session.h"
#include "env/crt.h"
#include "env/io/notation.h"
#include "env/preview.h"
#include "env/rules.h"
#include "env/visibility.h"

namespace morne::engine {

using nlohmann::json;

namespace {

// The principal variation as protocol steps, replayed from `s` to name each action.
json lineJson(env::GameState s, const std::vector<mcts::LineStep>& line) {
  json out = json::array();
  for (const mcts::LineStep& p : line) {
    if (p.chance) {
      if (!s.isChanceNode()) break;
      out.push_back(
          {{"chance", std::string(env::chanceKindName(s.pending.kind))}, {"outcome", p.outcome}});
      env::applyChance(s, p.outcome);
    } else {
      if (s.isChanceNode() || !env::isLegal(s, p.action)) break;
      out.push_back(
          {{"action", env::actionJson(s, p.action)}, {"text", env::actionText(s, p.action)}});
      env::applyAction(s, p.action);
    }
  }
  return out;
}

// Whether the agents of `spec` take the parameter `key`.
bool takes(const std::string& spec, const char* key) {
  const agents::AgentSpec parsed = agents::parseAgentSpec(spec);
  for (const agents::AgentKind& kind : agents::agentKinds()) {
    if (kind.name != parsed.name) continue;
    for (const agents::SpecParamInfo& p : kind.parameters()) {
      if (p.key == key) return true;
    }
  }
  return false;
}

// Whether the agents of `spec` search (their kind takes a time budget, "ms").
bool searches(const std::string& spec) { return takes(spec, "ms"); }

// `spec` within a server's limits on the threads and the memory of one search: threads cut to
// the limit, and each tree's node pool to its share of the memory (40 bytes a node).
std::string withinLimits(const std::string& spec, const SessionLimits& limits) {
  if (!limits.files) {
    const agents::AgentSpec parsed = agents::parseAgentSpec(spec);
    if (agents::startsProgram(spec)) {
      throw RequestError{"bad_request",
                         "this server runs no programs: ext agents play in a local morne engine, "
                         "arena or play, not over the network"};
    }
    const auto model = parsed.params.find("model");
    if (model != parsed.params.end() && agents::isModelPath(model->second)) {
      throw RequestError{"bad_request",
                         "this server reads no files: model= takes the name of a shipped model "
                         "(\"models\" lists them), not a path"};
    }
  }
  if (!takes(spec, "threads") || !takes(spec, "nodes")) return spec;
  agents::AgentSpec parsed = agents::parseAgentSpec(spec);
  // A value that is not a whole number is left for makeAgent to refuse precisely.
  auto whole = [&](const char* key, int64_t absent) -> std::optional<int64_t> {
    auto it = parsed.params.find(key);
    if (it == parsed.params.end()) return absent;
    int64_t v = 0;
    const auto [end, ec] =
        std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
    if (ec != std::errc() || end != it->second.data() + it->second.size() || v < 1)
      return std::nullopt;
    return v;
  };
  const auto threads_asked = whole("threads", 1);
  const auto nodes_asked = whole("nodes", int64_t{1} << 22);  // the default pool
  if (!threads_asked || !nodes_asked) return spec;
  int64_t threads = *threads_asked;
  if (limits.max_search_threads > 0 && threads > limits.max_search_threads) {
    threads = limits.max_search_threads;
    parsed.params["threads"] = std::to_string(threads);
  }
  if (limits.max_search_bytes > 0) {
    constexpr int64_t kNodeBytes = 40;
    const int64_t cap = std::max<int64_t>(1000, limits.max_search_bytes / kNodeBytes / threads);
    if (*nodes_asked > cap) parsed.params["nodes"] = std::to_string(cap);
  }
  return agents::specText(parsed);
}

// `spec` searching for `ms` milliseconds instead of its own budget, when its kind searches;
// an agent that does not search answers at once, within any limit.
std::string withTimeLimit(const std::string& spec, int64_t ms) {
  if (!searches(spec)) return spec;
  return agents::withBudget(spec, "ms", ms);
}

// The request's "play" (false when absent): whether the chosen action is also applied to the
// game. Refused when it is not a boolean, or when it is true with a "state" of the request's
// own (there is no game to apply it to).
bool playField(const json& req) {
  if (!req.contains("play")) return false;
  if (!req["play"].is_boolean())
    throw RequestError{"bad_request", "\"play\" must be true or false"};
  const bool play = req["play"].get<bool>();
  if (play && req.contains("state"))
    throw RequestError{"bad_request", "\"play\" applies to the game, not to a \"state\" given"};
  return play;
}

double probabilityOf(const std::vector<env::Outcome>& outcomes, size_t unit,
                     bool (*holds)(const env::UnitOutcome&)) {
  double p = 0;
  for (const env::Outcome& o : outcomes) p += holds(o.units[unit]) ? o.probability.value() : 0;
  return p;
}

// What an attack promises: its odds and the chances of its results (from the exact preview).
json attackJson(const env::GameState& s, env::Action a) {
  const env::CombatPreview p = env::previewCombat(s, a);
  auto eliminated = [](const env::UnitOutcome& o) { return o.cell == env::kNoCell; };
  auto retreats = [](const env::UnitOutcome& o) { return o.retreated; };
  return {{"odds", env::oddsName(p.odds.column)},
          {"defender_eliminated", probabilityOf(p.outcomes, 1, eliminated)},
          {"defender_retreats", probabilityOf(p.outcomes, 1, retreats)},
          {"attacker_eliminated", probabilityOf(p.outcomes, 0, eliminated)},
          {"attacker_retreats", probabilityOf(p.outcomes, 0, retreats)}};
}

// A decision as the protocol reports it: the action, the search's statistics, the `top` most
// visited candidates (an attack with its odds and chances), ties in the order the search
// breaks them (the higher prior first, mcts/search_result.cpp), so that the first is the move
// played, and the principal variation.
json decisionJson(const env::GameState& s, const agents::Decision& d, size_t top,
                  const std::string& spec) {
  std::vector<mcts::RootChild> children = d.info.children;
  std::stable_sort(children.begin(), children.end(),
                   [](const mcts::RootChild& a, const mcts::RootChild& b) {
                     return a.visits != b.visits ? a.visits > b.visits : a.prior > b.prior;
                   });
  json list = json::array();
  for (size_t i = 0; i < std::min(top, children.size()); ++i) {
    const mcts::RootChild& c = children[i];
    json j = {{"action", env::actionJson(s, c.action)},
              {"text", env::actionText(s, c.action)},
              {"visits", c.visits},
              {"value", c.value},
              {"prior", c.prior}};
    if (c.action.kind == env::ActionKind::kAttack && env::isLegal(s, c.action))
      j["attack"] = attackJson(s, c.action);
    list.push_back(j);
  }
  json out = {{"agent", spec},
              {"action", env::actionJson(s, d.action)},
              {"text", env::actionText(s, d.action)},
              {"index", env::actionIndex(s.sc(), d.action)},
              {"simulations", d.info.simulations},
              {"seconds", d.info.seconds},
              {"nodes", d.info.nodes},
              {"value", d.info.root_value},
              {"children", list},
              {"pv", lineJson(s, d.info.principal_variation)}};
  if (d.action.kind == env::ActionKind::kAttack && env::isLegal(s, d.action))
    out["attack"] = attackJson(s, d.action);
  return out;
}

}  // namespace

namespace {

// The position a search may start from, or the refusal.
void checkSearchable(const env::GameState& s) {
  if (s.isTerminal()) throw RequestError{"game_over", "the game is over"};
  if (s.isChanceNode()) {
    throw RequestError::refused({env::RefusalReason::kChancePending, "RNG-5",
                                 "a " + std::string(env::chanceKindName(s.pending.kind)) +
                                     " is pending: apply an outcome or roll before a search"});
  }
}

size_t topField(const json& req, size_t fallback) {
  return req.contains("top") ? static_cast<size_t>(integerField(req, "top", 0, 1000)) : fallback;
}

}  // namespace

// For a session bound to a side: the other side's decisions it may not see (S-4) are played
// (genmove with play) but neither shown nor analysed.
void EngineSession::checkDecisionVisible(const json& req, bool played) const {
  if (req.contains("state") || played) return;
  if (game_.decisionsHidden()) {
    throw RequestError::refused({env::RefusalReason::kHiddenInformation, "S-4",
                                 "the first player's decisions in game turn 1 are hidden from "
                                 "the second player"});
  }
}

json EngineSession::genmove(const json& req) {
  std::optional<env::GameState> own;
  const env::GameState& s = game_.position(req, &own);
  checkSearchable(s);
  const bool play = playField(req);
  checkDecisionVisible(req, play);
  if (!req.contains("agent") || !req["agent"].is_string())
    throw RequestError{"bad_request", "give \"agent\": an agent spec such as \"mcts:sims=800\""};
  if (req.contains("seed") && !req["seed"].is_number_unsigned())
    throw RequestError{"bad_request", "\"seed\" must be a non-negative integer"};
  auto job = std::make_unique<SearchJob>();
  job->top = topField(req, 10);
  const auto max_ms = static_cast<int64_t>(limits_.max_search_ms);
  std::string spec = withinLimits(req["agent"].get<std::string>(), limits_);
  if (req.contains("ms")) spec = withTimeLimit(spec, integerField(req, "ms", 1, max_ms));

  // An agent kept per spec serves the whole game (its search tree is reused from one move to
  // the next); an explicit seed asks for a fresh agent with that seed.
  if (req.contains("seed")) {
    job->fresh = agents::makeAgent(spec, req["seed"].get<uint64_t>());
    job->agent = job->fresh.get();
  } else {
    job->agent = &agents_.agentFor(spec, game_.seed());
  }
  job->id = request_id_;
  job->cmd = "genmove";
  job->spec = spec;
  job->position =
      req.contains("state") ? s : game_.position();  // the agent sees what its side may know
  job->shown = s;
  job->hidden = game_.decisionsHidden();
  job->play = play;
  job->searches = searches(spec);
  startSearch(std::move(job));
  return json::object();
}

json EngineSession::analyze(const json& req) {
  std::optional<env::GameState> own;
  const env::GameState& s = game_.position(req, &own);
  checkSearchable(s);
  const bool play = playField(req);
  checkDecisionVisible(req, play);
  const std::string asked = req.contains("agent")
                                ? (req["agent"].is_string() ? req["agent"].get<std::string>() : "")
                                : "mcts:threads=2";
  if (asked.empty()) throw RequestError{"bad_request", "\"agent\" must be an agent spec"};
  const std::string spec = withinLimits(asked, limits_);
  const auto max_ms = static_cast<int64_t>(limits_.max_search_ms);
  auto job = std::make_unique<SearchJob>();
  job->top = topField(req, 5);
  job->period_ms = req.contains("period_ms")
                       ? static_cast<double>(integerField(req, "period_ms", 50, 60'000))
                       : 500;
  job->total_ms = req.contains("ms") ? static_cast<double>(integerField(req, "ms", 1, max_ms))
                                     : limits_.max_search_ms;
  job->until_stop = !req.contains("ms");
  job->agent = &agents_.agentFor(spec, game_.seed());
  job->play = play;
  job->id = request_id_;
  job->cmd = "analyze";
  job->spec = spec;
  job->position = req.contains("state") ? s : game_.position();
  job->shown = s;
  job->searches = searches(spec);
  job->hidden = job->play && game_.decisionsHidden();
  startSearch(std::move(job));
  return json::object();
}

std::string EngineSession::shownSpec(const SearchJob& job) const {
  // A server's clients see the spec as they asked it (within the server's limits): the agent's
  // own would show where the server keeps its models, a path the server refuses from them.
  return limits_.files ? job.agent->spec() : job.spec;
}

json EngineSession::runSearch(SearchJob& job) {
  agents::Agent& agent = *job.agent;
  if (job.searches) {
    agent.setStopFlag(&stop_);
    agent.setTimeCap(limits_.max_search_ms);
  }
  struct Unhook {  // the agent outlives the request; the flag is the session's
    agents::Agent& agent;
    ~Unhook() {
      agent.setStopFlag(nullptr);
      agent.setTimeCap(0);
    }
  } unhook{agent};
  if (job.cmd == "genmove" || !job.searches) {
    const agents::Decision d = agents::decideWithWhatItKnows(agent, job.position);
    job.decided = d.action;
    json out = decisionJson(job.shown, d, job.top, shownSpec(job));
    out["stopped"] = stop_.load();
    if (job.cmd == "analyze") {  // an agent that does not search reports once
      out["update"] = 1;
      out["final"] = true;
    }
    return out;
  }
  // analyze: slices of period_ms on the same tree; each reports the search so far.
  double spent_ms = 0;
  int simulations = 0;
  for (int update = 1;; ++update) {
    const double slice = std::min(job.period_ms, job.total_ms - spent_ms);
    agent.setBudget({{"ms", std::to_string(slice)}});
    const agents::Decision d = agents::decideWithWhatItKnows(agent, job.position);
    spent_ms += d.info.seconds * 1000;
    simulations += d.info.simulations;
    json out = decisionJson(job.shown, d, job.top, job.spec);
    out["simulations"] = simulations;
    out["seconds"] = spent_ms / 1000;
    out["update"] = update;
    job.decided = d.action;
    const bool done = stop_.load() || spent_ms >= job.total_ms - 1;
    if (done) {
      out["final"] = true;
      out["stopped"] = stop_.load();
      return out;
    }
    if (job.hidden) continue;  // a decision the session's side may not see: no reports
    out["final"] = false;
    out["ok"] = true;
    out["cmd"] = job.cmd;
    std::lock_guard lock(mutex_);
    reply(replyLine(out, job.id));
  }
}

void EngineSession::finishSearch(SearchJob& job, json result) {
  if (job.hidden && result.value("ok", true)) result = {{"hidden", true}};
  if (result.value("ok", true)) {
    if (job.play) {
      game_.recordAgent(job.cmd == "genmove" ? shownSpec(job) : job.spec);
      json played = game_.play({.chance = false, .action = job.decided, .outcome = 0});
      for (auto& [key, value] : played.items()) result[key] = value;
    }
    result["ok"] = true;
    result["cmd"] = job.cmd;
  }
  reply(replyLine(std::move(result), job.id));
}

}  // namespace morne::engine
