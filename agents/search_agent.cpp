#include "agents/search_agent.h"

#include <algorithm>
#include <array>

#include "agents/spec_params.h"
#include "env/agent_actions.h"
#include "env/error.h"
#include "env/rules.h"

namespace morne::agents {

namespace {

// The budget rows of the search parameters.
std::vector<SpecParam<mcts::SearchParams>> budgetRows() {
  std::vector<SpecParam<mcts::SearchParams>> rows;
  for (const auto& r : searchParamRows()) {
    if (r.shown == Shown::kBudget) rows.push_back(r);
  }
  return rows;
}

}  // namespace

bool isBudgetKey(std::string_view key) {
  for (const auto& r : searchParamRows()) {
    if (r.shown == Shown::kBudget && r.key == key) return true;
  }
  return false;
}

SearchAgent::SearchAgent(mcts::SearchParams params, mcts::EvaluatorFactory factory, uint64_t seed,
                         SearchAgentText text)
    : search_(params, std::move(factory), seed), text_(std::move(text)) {}

std::string SearchAgent::spec() const { return text_.spec(search_.params()); }

void SearchAgent::setBudget(const std::map<std::string, std::string>& budget) {
  const std::string agent = spec();
  const std::string name = agent.substr(0, agent.find(':'));
  mcts::SearchParams p = search_.params();
  const std::vector<SpecParam<mcts::SearchParams>> rows = budgetRows();
  for (const auto& r : rows) r.set(p, r.get(text_.defaults));
  readSpecParams<mcts::SearchParams>(name + " budget", rows, budget, p);
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
  if (legal.size() == 1) return onlyAction(legal[0]);
  if (search_.params().turn_milliseconds <= 0) return decisionFrom(search_.run(s));
  const mcts::SearchResult r = search_.run(s, turnShare(s, std::span(legal.begin(), legal.size())));
  turn_spent_ += 1000 * r.seconds;
  return decisionFrom(r);
}

Decision onlyAction(const env::Action& a) {
  Decision d;
  d.action = a;
  d.info.best = a;
  d.info.children.push_back({a, 0, 0, 1, 1});
  return d;
}

Decision decisionFrom(mcts::SearchResult r) {
  Decision d;
  d.action = r.best;
  d.info = std::move(r);
  return d;
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

}  // namespace morne::agents
