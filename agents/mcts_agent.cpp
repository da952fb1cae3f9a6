#include "agents/mcts_agent.h"

#include <cmath>
#include <sstream>

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
      : heuristics_(weightsFor(p)), temperature_(p.temperature), rollout_turns_(p.rollout), policy_(p.policy),
        rng_(seed) {}

  double evaluate(const env::GameState& s, std::span<const env::Action> legal, std::span<float> priors) override {
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
      env::legalActions(x, legal_);
      env::applyAction(x, legal_[heuristics_.scoreAll(x, std::span(legal_.begin(), legal_.size()), scores_)]);
    }
    return x;
  }

  Heuristics heuristics_;
  double temperature_;
  int rollout_turns_;
  RolloutPolicy policy_;
  env::Rng rng_;
  env::ActionList legal_;
  std::array<double, env::kMaxLegalActions> scores_{};
};

int intParam(const std::string& key, const std::string& value, int lo, int hi) {
  size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || v < lo || v > hi) {
    throw ConfigError("mcts: " + key + "=" + value + " is not an integer in " + std::to_string(lo) + ".." +
                      std::to_string(hi));
  }
  return v;
}

double doubleParam(const std::string& key, const std::string& value, double lo, double hi) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || !(v >= lo && v <= hi)) {
    throw ConfigError("mcts: " + key + "=" + value + " is not a number in " + std::to_string(lo) + ".." +
                      std::to_string(hi));
  }
  return v;
}

}  // namespace

std::unique_ptr<mcts::Evaluator> makeHeuristicEvaluator(const MctsAgentParams& params, uint64_t seed) {
  return std::make_unique<HeuristicEvaluator>(params, seed);
}

MctsAgentParams parseMctsParams(const std::map<std::string, std::string>& params) {
  MctsAgentParams p;
  for (const auto& [key, value] : params) {
    if (key == "sims") {
      p.search.simulations = intParam(key, value, 1, 10'000'000);
    } else if (key == "ms") {
      p.search.milliseconds = doubleParam(key, value, 0, 3'600'000);
    } else if (key == "cpuct") {
      p.search.cpuct = doubleParam(key, value, 0, 100);
    } else if (key == "threads") {
      p.search.threads = intParam(key, value, 1, 256);
    } else if (key == "nodes") {
      p.search.max_nodes = static_cast<size_t>(intParam(key, value, 1000, 100'000'000));
    } else if (key == "reuse") {
      p.search.reuse_tree = intParam(key, value, 0, 1) == 1;
    } else if (key == "scale") {
      p.value_scale = doubleParam(key, value, 0, 1000);
    } else if (key == "temperature") {
      p.temperature = doubleParam(key, value, 0.01, 100);
    } else if (key == "rollout") {
      p.rollout = intParam(key, value, 0, 1000);
    } else if (key == "policy") {
      if (value != "rule" && value != "random") throw ConfigError("mcts: policy=" + value + " is not rule or random");
      p.policy = value == "rule" ? RolloutPolicy::kRule : RolloutPolicy::kRandom;
    } else {
      throw ConfigError("mcts: unknown parameter \"" + key +
                        "\" (sims, ms, cpuct, threads, nodes, reuse, temperature, scale, rollout, policy)");
    }
  }
  return p;
}

MctsAgent::MctsAgent(MctsAgentParams params, uint64_t seed)
    : params_(params),
      search_(params.search, [params](uint64_t s) { return makeHeuristicEvaluator(params, s); }, seed) {}

std::string MctsAgent::spec() const {
  std::ostringstream out;
  const mcts::SearchParams& p = params_.search;
  out << "mcts:";
  if (p.milliseconds > 0) {
    out << "ms=" << p.milliseconds;
  } else {
    out << "sims=" << p.simulations;
  }
  out << ",cpuct=" << p.cpuct << ",threads=" << p.threads << ",temperature=" << params_.temperature
      << ",scale=" << params_.value_scale
      << ",rollout=" << params_.rollout << ",policy=" << (params_.policy == RolloutPolicy::kRule ? "rule" : "random");
  return out.str();
}

Decision MctsAgent::decide(const env::GameState& s) {
  env::ActionList legal;
  env::legalActions(s, legal);
  Decision d;
  if (legal.size() == 1) {  // nothing to think about
    d.action = legal[0];
    d.info.children.push_back({legal[0], 0, 0, 1});
    return d;
  }
  const mcts::SearchResult r = search_.run(s);
  d.action = r.best;
  d.info.simulations = r.simulations;
  d.info.seconds = r.seconds;
  d.info.nodes = r.nodes;
  d.info.root_value = r.root_value;
  for (const mcts::RootChild& c : r.children) d.info.children.push_back({c.action, c.visits, c.value, c.prior});
  for (const mcts::LineStep& step : r.principal_variation) {
    d.info.principal_variation.push_back({step.chance, step.action, step.outcome});
  }
  return d;
}

}  // namespace morne::agents
