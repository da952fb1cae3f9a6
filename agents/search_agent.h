#pragma once
// An agent that decides by tree search (mcts/search.h) with whatever evaluator it is given:
// the heuristic evaluator ("mcts" specs, agents/mcts_agent.h) or a network ("az" specs,
// agents/network_agent.h). Also the spec parameters every search agent shares.

#include <cstdint>
#include <string>

#include "agents/agent.h"
#include "mcts/search.h"

namespace morne::agents {

class SearchAgent : public Agent {
 public:
  // `spec` is the spec string that rebuilds the agent (seed excluded).
  SearchAgent(mcts::SearchParams params, mcts::EvaluatorFactory factory, uint64_t seed,
              std::string spec);
  Decision decide(const env::GameState& s) override;
  std::string spec() const override { return spec_; }

 private:
  mcts::Search search_;
  std::string spec_;
};

// A search's result as an agent's decision.
Decision decisionFrom(const mcts::SearchResult& r);

// Reads one search parameter of agent `agent`'s spec into `p` (sims, ms, cpuct, threads, nodes,
// reuse, noise, noise_fraction, gumbel, gumbel_actions, gumbel_scale); returns false when `key`
// is none of them. Throws ConfigError on a bad value.
bool readSearchParam(const std::string& agent, const std::string& key, const std::string& value,
                     mcts::SearchParams& p);

// Throws ConfigError when the parameters do not go together (Gumbel with a time budget or with
// several threads).
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
