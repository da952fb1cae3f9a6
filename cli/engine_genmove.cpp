// The engine protocol's "genmove": an agent named by its spec chooses the next action of the
// current position and reports how (search statistics, principal variation); with "play": true
// the action is also applied, as "apply" would (docs/protocol.md).

#include <algorithm>

#include "agents/agent_kinds.h"
#include "agents/search_agent.h"
#include "cli/engine_json.h"
#include "cli/engine_session.h"
#include "cli/request_error.h"
#include "env/io/notation.h"
#include "env/rules.h"

namespace morne::cli {

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

// The longest time limit a genmove may ask for: an hour.
constexpr int64_t kMaxMoveMs = 3'600'000;

// `spec` searching for `ms` milliseconds instead of its own budget, when its kind searches
// (takes "ms"); an agent that does not search answers at once, within any limit.
std::string withTimeLimit(const std::string& spec, int64_t ms) {
  agents::AgentSpec parsed = agents::parseAgentSpec(spec);
  for (const agents::AgentKind& kind : agents::agentKinds()) {
    if (kind.name != parsed.name) continue;
    for (const agents::SpecParamInfo& p : kind.parameters()) {
      if (p.key != "ms") continue;
      parsed.params.erase("sims");
      parsed.params.erase("turn_ms");
      parsed.params["ms"] = std::to_string(ms);
      return agents::specText(parsed);
    }
  }
  return spec;
}

}  // namespace

json EngineSession::genmove(const json& req) {
  std::optional<env::GameState> own;
  const env::GameState& s = position(req, &own);
  if (s.isTerminal()) throw RequestError{"game_over", "the game is over"};
  if (s.isChanceNode()) {
    throw RequestError::refused({env::RefusalReason::kChancePending, "RNG-5",
                                 "a " + std::string(env::chanceKindName(s.pending.kind)) +
                                     " is pending: apply an outcome or roll before asking for a "
                                     "move"});
  }
  if (req.contains("state") && req.contains("play") && req["play"] == true)
    throw RequestError{"bad_request", "\"play\" applies to the game, not to a \"state\" given"};
  if (!req.contains("agent") || !req["agent"].is_string())
    throw RequestError{"bad_request", "give \"agent\": an agent spec such as \"mcts:sims=800\""};
  if (req.contains("seed") && !req["seed"].is_number_unsigned())
    throw RequestError{"bad_request", "\"seed\" must be a non-negative integer"};
  if (req.contains("play") && !req["play"].is_boolean())
    throw RequestError{"bad_request", "\"play\" must be true or false"};
  if (req.contains("top") && !req["top"].is_number_unsigned())
    throw RequestError{"bad_request", "\"top\" must be a non-negative integer"};
  std::string spec = req["agent"].get<std::string>();
  if (req.contains("ms")) spec = withTimeLimit(spec, integerField(req, "ms", 1, kMaxMoveMs));

  // An agent kept per spec serves the whole game (its search tree is reused from one move to
  // the next); an explicit seed asks for a fresh agent with that seed.
  std::unique_ptr<agents::Agent> fresh;
  agents::Agent* agent = nullptr;
  if (req.contains("seed")) {
    fresh = agents::makeAgent(spec, req["seed"].get<uint64_t>());
    agent = fresh.get();
  } else {
    agent = &keptAgent(spec);
  }
  const agents::Decision d = agent->decide(s);

  std::vector<mcts::RootChild> children = d.info.children;
  std::stable_sort(children.begin(), children.end(),
                   [](const mcts::RootChild& a, const mcts::RootChild& b) {
                     return a.visits != b.visits ? a.visits > b.visits : a.value > b.value;
                   });
  const size_t top = req.contains("top") ? req["top"].get<size_t>() : 10;
  json list = json::array();
  for (size_t i = 0; i < std::min(top, children.size()); ++i) {
    const mcts::RootChild& c = children[i];
    list.push_back({{"action", env::actionJson(s, c.action)},
                    {"text", env::actionText(s, c.action)},
                    {"visits", c.visits},
                    {"value", c.value},
                    {"prior", c.prior}});
  }
  json out = {{"agent", agent->spec()},
              {"action", env::actionJson(s, d.action)},
              {"text", env::actionText(s, d.action)},
              {"index", env::actionIndex(s.sc(), d.action)},
              {"simulations", d.info.simulations},
              {"seconds", d.info.seconds},
              {"nodes", d.info.nodes},
              {"value", d.info.root_value},
              {"children", list},
              {"pv", lineJson(s, d.info.principal_variation)}};
  if (req.contains("play") && req["play"].get<bool>()) {
    record_.agents[static_cast<size_t>(s.side)] = agent->spec();
    json played = play({.chance = false, .action = d.action, .outcome = 0});
    for (auto& [key, value] : played.items()) out[key] = value;
  }
  return out;
}

agents::Agent& EngineSession::keptAgent(const std::string& spec) {
  // The key: the spec without its budget keys, parameters in sorted order.
  agents::AgentSpec parsed = agents::parseAgentSpec(spec);
  std::map<std::string, std::string> budget;
  for (auto it = parsed.params.begin(); it != parsed.params.end();) {
    if (agents::isBudgetKey(it->first)) {
      budget.insert(*it);
      it = parsed.params.erase(it);
    } else {
      ++it;
    }
  }
  const std::string key = agents::specText(parsed);

  KeptAgent& kept = agents_[key];
  kept.last_used = ++requests_served_;
  if (kept.agent) {
    kept.agent->setBudget(budget);
  } else {
    try {
      kept.agent = agents::makeAgent(spec, agent_seed_);
    } catch (...) {
      agents_.erase(key);
      throw;
    }
    if (agents_.size() > kMaxKeptAgents) {
      auto oldest = agents_.begin();
      for (auto it = agents_.begin(); it != agents_.end(); ++it) {
        if (it->second.last_used < oldest->second.last_used) oldest = it;
      }
      agents_.erase(oldest);
    }
  }
  return *kept.agent;
}

}  // namespace morne::cli
