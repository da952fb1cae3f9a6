#pragma once
// An agent that decides by tree search (mcts/search.h) with whatever evaluator it is given:
// the heuristic evaluator ("mcts" specs, agents/mcts_agent.h) or a network ("az" specs,
// agents/network_agent.h).

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/spec_params.h"
#include "mcts/search.h"

namespace morne::agents {

// Whether `key` sets a search's budget (sims, ms, turn_ms: the Shown::kBudget rows of
// agents/spec_params.h); the engine changes those on a kept agent without discarding its tree
// (Agent::setBudget).
bool isBudgetKey(std::string_view key);

// What a search agent knows of its kind: the kind's default search parameters (setBudget
// goes back to their budget) and how to write its spec with the search parameters it has now.
struct SearchAgentText {
  mcts::SearchParams defaults;
  std::function<std::string(const mcts::SearchParams&)> spec;
};

// The text of a search kind `kind` whose agents hold `params` (a struct P with its search
// parameters in `search`, described by `rows`, agents/spec_params.h).
template <class P>
SearchAgentText searchAgentText(const std::string& kind, const P& params,
                                const std::vector<SpecParam<P>>& rows) {
  return {P{}.search, [kind, params, &rows](const mcts::SearchParams& search) {
            P p = params;
            p.search = search;
            return kind + ":" + specParamsText<P>(rows, p);
          }};
}

// Budgets (docs/agents.md, "Search budgets"):
//   sims=N      N simulations per decision: reproducible, the same strength on any machine;
//   ms=T        T ms per decision (one atomic action: a movement step is a decision);
//   turn_ms=T   T ms per player-turn, shared out over its decisions: each gets what is left
//               divided by the decisions still expected (expectedDecisions below), and at
//               least 1% of T, so a turn may overrun T by
//               that floor for each decision left once T is spent.
class SearchAgent : public Agent {
 public:
  SearchAgent(mcts::SearchParams params, mcts::EvaluatorFactory factory, uint64_t seed,
              SearchAgentText text);
  Decision decide(const env::GameState& s) override;
  std::string spec() const override;
  void setBudget(const std::map<std::string, std::string>& budget) override;
  void setStopFlag(const std::atomic<bool>* stop) override { search_.setStopFlag(stop); }
  void setTimeCap(double milliseconds) override { search_.setTimeCap(milliseconds); }

 private:
  // The time for this decision under a per-turn budget, in ms.
  double turnShare(const env::GameState& s, std::span<const env::Action> actions);

  mcts::Search search_;
  SearchAgentText text_;
  int turn_ = -1;          // the player-turn being played (game turn x 2 + side)
  double turn_spent_ = 0;  // ms spent on its decisions so far
};

// Decisions still expected in the phasing player's turn from `s`, whose agent actions are
// `actions`: 1.5 per unit that can still step, one per unit with another action, one for the
// phase's end, and a quarter of the phasing units for the phases after a bombardment or
// movement phase.
double expectedDecisions(const env::GameState& s, std::span<const env::Action> actions);

// The decision when the agent has one action only: nothing to search, its prior and policy 1.
Decision onlyAction(const env::Action& a);

// A search's result as an agent's decision.
Decision decisionFrom(mcts::SearchResult r);

// Throws ConfigError when the parameters do not go together (two budgets, Gumbel with a time
// budget or with several threads).
void checkSearchParams(const std::string& agent, const mcts::SearchParams& p);

}  // namespace morne::agents
