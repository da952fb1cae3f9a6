#include "agents/mcts_agent.h"

#include <cmath>

#include "agents/search_agent.h"
#include "env/agent_actions.h"
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

namespace {

using Row = SpecParam<MctsAgentParams>;

const std::vector<Row>& mctsRows() {
  static const std::vector<Row> table = [] {
    std::vector<Row> r = liftRows(searchParamRows(), &MctsAgentParams::search);
    r.push_back({"temperature",
                 Row::Kind::kNumber,
                 0.01,
                 100,
                 {},
                 Shown::kAlways,
                 "of the softmax that turns the rule scores into priors (mcts only)",
                 MORNE_SPEC_FIELD(MctsAgentParams, temperature)});
    r.push_back({"scale",
                 Row::Kind::kNumber,
                 0,
                 1000,
                 {},
                 Shown::kAlways,
                 "leaf value = tanh(score / scale); 0: the heuristics' own (mcts only)",
                 MORNE_SPEC_FIELD(MctsAgentParams, value_scale)});
    r.push_back({"rollout",
                 Row::Kind::kInt,
                 0,
                 1000,
                 {},
                 Shown::kAlways,
                 "player-turns played out at a leaf before the evaluation (mcts only)",
                 MORNE_SPEC_FIELD(MctsAgentParams, rollout)});
    r.push_back({"policy",
                 Row::Kind::kChoice,
                 0,
                 0,
                 {"rule", "random"},
                 Shown::kAlways,
                 "who plays the rollouts (mcts only)",
                 MORNE_SPEC_FIELD(MctsAgentParams, policy)});
    return r;
  }();
  return table;
}

}  // namespace

MctsAgentParams parseMctsParams(const std::map<std::string, std::string>& params) {
  MctsAgentParams p;
  readSpecParams<MctsAgentParams>("mcts", mctsRows(), params, p);
  checkSearchParams("mcts", p.search);
  return p;
}

std::vector<SpecParamInfo> mctsAgentParameters() {
  return describeRows<MctsAgentParams>(mctsRows());
}

std::unique_ptr<Agent> makeMctsAgent(const AgentSpec& spec, uint64_t seed) {
  return makeMctsSearchAgent(parseMctsParams(spec.params), seed);
}

std::unique_ptr<Agent> makeMctsSearchAgent(const MctsAgentParams& params, uint64_t seed) {
  return std::make_unique<SearchAgent>(
      params.search, [params](uint64_t s) { return makeHeuristicEvaluator(params, s); }, seed,
      searchAgentText("mcts", params, mctsRows()));
}

}  // namespace morne::agents
