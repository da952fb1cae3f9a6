#pragma once
// An agent that decides by tree search (mcts/search.h) with whatever evaluator it is given:
// the heuristic evaluator ("mcts" specs, agents/mcts_agent.h) or a network ("az" specs,
// agents/network_agent.h). Also the spec parameters every search agent shares.

#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "agents/agent.h"
#include "mcts/search.h"

namespace morne::agents {

// The spec keys that set a search's budget; the engine changes them on a kept agent without
// discarding its tree (Agent::setBudget).
inline constexpr const char* kBudgetKeys[] = {"sims", "ms", "turn_ms"};

// How a search agent writes its spec: head + the search parameters + tail
// ("mcts:" "sims=800,cpuct=1.5,threads=1" ",temperature=0.5,..."), and the simulations of its
// kind's default budget.
struct SearchSpecText {
  std::string head;
  std::string tail;
  int default_simulations = 800;
};

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
              SearchSpecText text);
  Decision decide(const env::GameState& s) override;
  std::string spec() const override;
  void setBudget(const std::map<std::string, std::string>& budget) override;

 private:
  // The time for this decision under a per-turn budget, in ms.
  double turnShare(const env::GameState& s, std::span<const env::Action> actions);

  mcts::Search search_;
  SearchSpecText text_;
  int turn_ = -1;          // the player-turn being played (game turn x 2 + side)
  double turn_spent_ = 0;  // ms spent on its decisions so far
};

// Decisions still expected in the phasing player's turn from `s`, whose agent actions are
// `actions`: 1.5 per unit that can still step, one per unit with another action, one for the
// phase's end, and a quarter of the phasing units for the phases after a bombardment or
// movement phase.
double expectedDecisions(const env::GameState& s, std::span<const env::Action> actions);

// A search's result as an agent's decision.
Decision decisionFrom(const mcts::SearchResult& r);

// Reads one search parameter of agent `agent`'s spec into `p` (sims, ms, turn_ms, cpuct,
// threads, nodes, reuse, prune, noise, noise_fraction, gumbel, gumbel_actions, gumbel_scale);
// returns false when `key` is none of them. Throws ConfigError on a bad value.
bool readSearchParam(const std::string& agent, const std::string& key, const std::string& value,
                     mcts::SearchParams& p);

// Throws ConfigError when the parameters do not go together (two budgets, Gumbel with a time
// budget or with several threads).
void checkSearchParams(const std::string& agent, const mcts::SearchParams& p);

// The search parameters as spec text: "sims=800,cpuct=1.5,threads=1" (or "ms=..." for a time
// budget).
std::string searchParamsText(const mcts::SearchParams& p);

// A spec value as an integer or a number within [lo, hi]; throws ConfigError naming the agent,
// the key and the accepted range.
int specInt(const std::string& agent, const std::string& key, const std::string& value, int lo,
            int hi);
double specDouble(const std::string& agent, const std::string& key, const std::string& value,
                  double lo, double hi);

}  // namespace morne::agents
