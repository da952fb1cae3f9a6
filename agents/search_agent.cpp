#include "agents/search_agent.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "env/agent_actions.h"
#include "env/error.h"
#include "env/rules.h"

namespace morne::agents {

SearchAgent::SearchAgent(mcts::SearchParams params, mcts::EvaluatorFactory factory, uint64_t seed,
                         SearchSpecText text)
    : search_(params, std::move(factory), seed), text_(std::move(text)) {}

std::string SearchAgent::spec() const {
  return text_.head + searchParamsText(search_.params()) + text_.tail;
}

void SearchAgent::setBudget(const std::map<std::string, std::string>& budget) {
  const std::string name = text_.head.substr(0, text_.head.find(':'));
  mcts::SearchParams p = search_.params();
  p.simulations = text_.default_simulations;
  p.milliseconds = 0;
  p.turn_milliseconds = 0;
  for (const auto& [key, value] : budget) {
    const bool is_budget =
        std::find(std::begin(kBudgetKeys), std::end(kBudgetKeys), key) != std::end(kBudgetKeys);
    if (!is_budget) {
      throw ConfigError(name + ": \"" + key + "\" is not a budget key (sims, ms, turn_ms)");
    }
    readSearchParam(name, key, value, p);
  }
  checkSearchParams(name, p);
  search_.setBudget(p.simulations, p.milliseconds, p.turn_milliseconds);
}

double expectedDecisions(const env::GameState& s, std::span<const env::Action> actions) {
  std::array<uint8_t, env::kMaxCells> seen{};  // 1: the unit has an action; 2: it can step
  int steppers = 0, others = 0;
  for (const env::Action& a : actions) {
    if (a.cell == env::kNoCell || a.kind == env::ActionKind::kPlace) continue;
    uint8_t& mark = seen[static_cast<size_t>(a.cell)];
    const uint8_t want = a.kind == env::ActionKind::kMove ? 2 : 1;
    if (mark >= want) continue;
    others += want == 1 ? 1 : (mark == 1 ? -1 : 0);
    steppers += want == 2;
    mark = want;
  }
  double decisions = 1 + 1.5 * steppers + others;
  if (s.phase == env::Phase::kBombardment || s.phase == env::Phase::kMovement) {
    int units = 0;
    for (int u = 0; u < s.num_units; ++u) units += s.sideOf(u) == s.side && s.onMap(u);
    decisions += units / 4.0;
  }
  return decisions;
}

double SearchAgent::turnShare(const env::GameState& s, std::span<const env::Action> actions) {
  const double budget = search_.params().turn_milliseconds;
  const int turn = s.turn * 2 + s.side;
  if (turn != turn_) {
    turn_ = turn;
    turn_spent_ = 0;
  }
  const double left = budget - turn_spent_;
  return std::max(budget / 100, left / expectedDecisions(s, actions));
}

Decision SearchAgent::decide(const env::GameState& s) {
  env::ActionList legal;
  env::agentActions(s, legal, search_.params().prune);
  Decision d;
  if (legal.size() == 1) {  // nothing to think about
    d.action = legal[0];
    d.info.children.push_back({legal[0], 0, 0, 1, 1});
    return d;
  }
  if (search_.params().turn_milliseconds <= 0) return decisionFrom(search_.run(s));
  const mcts::SearchResult r = search_.run(s, turnShare(s, std::span(legal.begin(), legal.size())));
  turn_spent_ += 1000 * r.seconds;
  return decisionFrom(r);
}

Decision decisionFrom(const mcts::SearchResult& r) {
  Decision d;
  d.action = r.best;
  d.info.simulations = r.simulations;
  d.info.seconds = r.seconds;
  d.info.nodes = r.nodes;
  d.info.root_value = r.root_value;
  d.info.sampled = r.sampled;
  for (const mcts::RootChild& c : r.children)
    d.info.children.push_back({c.action, c.visits, c.value, c.prior, c.policy});
  for (const mcts::LineStep& step : r.principal_variation) {
    d.info.principal_variation.push_back({step.chance, step.action, step.outcome});
  }
  return d;
}

int specInt(const std::string& agent, const std::string& key, const std::string& value, int lo,
            int hi) {
  size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || v < lo || v > hi) {
    throw ConfigError(agent + ": " + key + "=" + value + " is not an integer in " +
                      std::to_string(lo) + ".." + std::to_string(hi));
  }
  return v;
}

double specDouble(const std::string& agent, const std::string& key, const std::string& value,
                  double lo, double hi) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || !(v >= lo && v <= hi)) {
    throw ConfigError(agent + ": " + key + "=" + value + " is not a number in " +
                      std::to_string(lo) + ".." + std::to_string(hi));
  }
  return v;
}

bool readSearchParam(const std::string& agent, const std::string& key, const std::string& value,
                     mcts::SearchParams& p) {
  if (key == "sims") {
    p.simulations = specInt(agent, key, value, 1, 10'000'000);
  } else if (key == "ms") {
    p.milliseconds = specDouble(agent, key, value, 0, 3'600'000);
  } else if (key == "turn_ms") {
    p.turn_milliseconds = specDouble(agent, key, value, 0, 3'600'000);
  } else if (key == "cpuct") {
    p.cpuct = specDouble(agent, key, value, 0, 100);
  } else if (key == "threads") {
    p.threads = specInt(agent, key, value, 1, 256);
  } else if (key == "nodes") {
    p.max_nodes = static_cast<size_t>(specInt(agent, key, value, 1000, 100'000'000));
  } else if (key == "reuse") {
    p.reuse_tree = specInt(agent, key, value, 0, 1) == 1;
  } else if (key == "prune") {
    p.prune = specInt(agent, key, value, 0, 1) == 1;
  } else if (key == "noise") {
    p.noise_alpha = specDouble(agent, key, value, 0, 100);
  } else if (key == "noise_fraction") {
    p.noise_fraction = specDouble(agent, key, value, 0, 1);
  } else if (key == "gumbel") {
    p.gumbel = specInt(agent, key, value, 0, 1) == 1;
  } else if (key == "gumbel_actions") {
    p.gumbel_actions = specInt(agent, key, value, 1, 1024);
  } else if (key == "gumbel_scale") {
    p.gumbel_scale = specDouble(agent, key, value, 0, 10);
  } else {
    return false;
  }
  return true;
}

void checkSearchParams(const std::string& agent, const mcts::SearchParams& p) {
  if (p.milliseconds > 0 && p.turn_milliseconds > 0) {
    throw ConfigError(agent + ": give ms (per decision) or turn_ms (per player-turn), not both");
  }
  if (p.gumbel && (p.milliseconds > 0 || p.turn_milliseconds > 0)) {
    throw ConfigError(agent + ": gumbel=1 shares a number of simulations; give sims=N, not ms");
  }
  if (p.gumbel && p.threads > 1) {
    throw ConfigError(
        agent + ": gumbel=1 searches one tree; use threads=1 (play games in parallel instead)");
  }
}

std::string searchParamsText(const mcts::SearchParams& p) {
  std::ostringstream out;
  if (p.turn_milliseconds > 0) {
    out << "turn_ms=" << p.turn_milliseconds;
  } else if (p.milliseconds > 0) {
    out << "ms=" << p.milliseconds;
  } else {
    out << "sims=" << p.simulations;
  }
  out << ",cpuct=" << p.cpuct << ",threads=" << p.threads;
  if (!p.prune) out << ",prune=0";
  if (p.noise_alpha > 0)
    out << ",noise=" << p.noise_alpha << ",noise_fraction=" << p.noise_fraction;
  if (p.gumbel)
    out << ",gumbel=1,gumbel_actions=" << p.gumbel_actions << ",gumbel_scale=" << p.gumbel_scale;
  return out.str();
}

}  // namespace morne::agents
