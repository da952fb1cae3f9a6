#include "agents/mcts_agent.h"

#include <cmath>
#include <sstream>

#include "agents/search_agent.h"
#include "env/agent_actions.h"
#include "env/error.h"
#include "env/rules.h"

namespace morne::agents {

namespace {

HeuristicWeights weightsFor(const MctsAgentParams& p) {
  HeuristicWeights w;
  w.value_scale = p.value_scale;
  return w;
}

class HeuristicEvaluator : public mcts::Evaluator {
 public:
  HeuristicEvaluator(const MctsAgentParams& p, uint64_t seed)
      : heuristics_(weightsFor(p)),
        temperature_(p.temperature),
        rollout_turns_(p.rollout),
        policy_(p.policy),
        prune_(p.search.prune),
        rng_(seed) {}

  double evaluate(const env::GameState& s, std::span<const env::Action> legal,
                  std::span<float> priors) override {
    if (!legal.empty()) {
      const size_t best = heuristics_.scoreAll(s, legal, scores_);
      double total = 0;
      for (size_t i = 0; i < legal.size(); ++i) {
        scores_[i] = std::exp((scores_[i] - scores_[best]) / temperature_);
        total += scores_[i];
      }
      for (size_t i = 0; i < legal.size(); ++i) priors[i] = static_cast<float>(scores_[i] / total);
    }
    if (rollout_turns_ == 0) return heuristics_.evaluate(s);
    return heuristics_.evaluate(playout(s));
  }

 private:
  // Plays on from `s` until `rollout_turns_` player-turns have ended (or the game), drawing the
  // dice from this evaluator's generator.
  env::GameState playout(const env::GameState& s) {
    env::GameState x = s;
    int side = x.side;
    int ended = 0;
    while (!x.isTerminal()) {
      if (x.isChanceNode()) {
        env::applyChance(x, env::sampleChance(x, rng_));
        continue;
      }
      if (x.side != side) {
        side = x.side;
        if (++ended == rollout_turns_) break;
      }
      if (policy_ == RolloutPolicy::kRandom) {
        env::playRandomPly(x, rng_, legal_);
        continue;
      }
      env::agentActions(x, legal_, prune_);
      env::applyAction(
          x, legal_[heuristics_.scoreAll(x, std::span(legal_.begin(), legal_.size()), scores_)]);
    }
    return x;
  }

  Heuristics heuristics_;
  double temperature_;
  int rollout_turns_;
  RolloutPolicy policy_;
  bool prune_;  // the rule rollouts choose as the search does
  env::Rng rng_;
  env::ActionList legal_;
  std::array<double, env::kMaxLegalActions> scores_{};
};

}  // namespace

std::unique_ptr<mcts::Evaluator> makeHeuristicEvaluator(const MctsAgentParams& params,
                                                        uint64_t seed) {
  return std::make_unique<HeuristicEvaluator>(params, seed);
}

MctsAgentParams parseMctsParams(const std::map<std::string, std::string>& params) {
  MctsAgentParams p;
  for (const auto& [key, value] : params) {
    if (readSearchParam("mcts", key, value, p.search)) continue;
    if (key == "scale") {
      p.value_scale = specDouble("mcts", key, value, 0, 1000);
    } else if (key == "temperature") {
      p.temperature = specDouble("mcts", key, value, 0.01, 100);
    } else if (key == "rollout") {
      p.rollout = specInt("mcts", key, value, 0, 1000);
    } else if (key == "policy") {
      if (value != "rule" && value != "random")
        throw ConfigError("mcts: policy=" + value + " is not rule or random");
      p.policy = value == "rule" ? RolloutPolicy::kRule : RolloutPolicy::kRandom;
    } else {
      throw ConfigError("mcts: unknown parameter \"" + key +
                        "\" (sims, ms, turn_ms, cpuct, threads, nodes, reuse, prune, noise, "
                        "noise_fraction, gumbel, "
                        "gumbel_actions, gumbel_scale, temperature, scale, rollout, policy)");
    }
  }
  checkSearchParams("mcts", p.search);
  return p;
}

std::unique_ptr<Agent> makeMctsAgent(const MctsAgentParams& params, uint64_t seed) {
  std::ostringstream tail;
  tail << ",temperature=" << params.temperature << ",scale=" << params.value_scale
       << ",rollout=" << params.rollout
       << ",policy=" << (params.policy == RolloutPolicy::kRule ? "rule" : "random");
  return std::make_unique<SearchAgent>(
      params.search, [params](uint64_t s) { return makeHeuristicEvaluator(params, s); }, seed,
      SearchSpecText{"mcts:", tail.str(), MctsAgentParams{}.search.simulations});
}

}  // namespace morne::agents
