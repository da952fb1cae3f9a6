#include "agents/agent_spec.h"

#include <vector>

#include "agents/mcts_agent.h"
#include "agents/random_agent.h"
#include "agents/rule_agent.h"
#include "agents/search_agent.h"
#include "env/error.h"

namespace morne::agents {

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

AgentSpec parseAgentSpec(std::string_view text) {
  AgentSpec spec;
  const auto colon = text.find(':');
  spec.name = trim(text.substr(0, colon));
  if (spec.name.empty())
    throw ConfigError("agent spec \"" + std::string(text) + "\": missing agent name");
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw ConfigError("agent spec \"" + std::string(text) + "\": parameter \"" + trim(item) +
                        "\" needs the form key=value");
    }
    const std::string key = trim(item.substr(0, eq));
    if (key.empty() || spec.params.count(key)) {
      throw ConfigError(
          "agent spec \"" + std::string(text) + "\": " +
          (key.empty() ? "empty parameter name" : "parameter \"" + key + "\" given twice"));
    }
    spec.params[key] = trim(item.substr(eq + 1));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return spec;
}

std::string specText(const AgentSpec& spec) {
  std::string out = spec.name;
  char sep = ':';
  for (const auto& [key, value] : spec.params) {
    out += sep + key + "=" + value;
    sep = ',';
  }
  return out;
}

namespace {

struct RegisteredKind {
  std::string name;
  AgentMaker maker;
  std::string catalog;
  BatchedMaker batched;
};

std::vector<RegisteredKind>& registeredKinds() {
  static std::vector<RegisteredKind> kinds;
  return kinds;
}

}  // namespace

void registerAgentKind(const std::string& name, AgentMaker maker, const std::string& catalog,
                       BatchedMaker batched) {
  for (RegisteredKind& k : registeredKinds()) {
    if (k.name == name) {
      k = {name, std::move(maker), catalog, std::move(batched)};
      return;
    }
  }
  registeredKinds().push_back({name, std::move(maker), catalog, std::move(batched)});
}

std::optional<BatchedSearch> makeBatchedSearch(std::string_view text) {
  const AgentSpec spec = parseAgentSpec(text);
  for (const RegisteredKind& k : registeredKinds()) {
    if (k.name == spec.name && k.batched) return k.batched(spec);
  }
  return std::nullopt;
}

std::unique_ptr<Agent> makeAgent(std::string_view text, uint64_t seed) {
  const AgentSpec spec = parseAgentSpec(text);
  for (const RegisteredKind& k : registeredKinds()) {
    if (k.name == spec.name) return k.maker(spec, seed);
  }
  if (spec.name == "rule") {
    bool prune = true;
    for (const auto& [key, value] : spec.params) {
      if (key != "prune") {
        throw ConfigError("agent spec \"" + std::string(text) +
                          "\": agent \"rule\" takes one "
                          "parameter, prune=0|1 (unknown \"" +
                          key + "\")");
      }
      prune = specInt("rule", key, value, 0, 1) == 1;
    }
    return std::make_unique<RuleAgent>(HeuristicWeights{}, prune);
  }
  if (spec.name == "mcts") return makeMctsAgent(parseMctsParams(spec.params), seed);
  if (spec.name == "random") {
    if (!spec.params.empty()) {
      throw ConfigError("agent spec \"" + std::string(text) +
                        "\": agent \"random\" takes no "
                        "parameters (its seed comes from the game seed)");
    }
    return std::make_unique<RandomAgent>(seed);
  }
  std::string available = "random, rule, mcts";
  for (const RegisteredKind& k : registeredKinds()) available += ", " + k.name;
  throw ConfigError("agent spec \"" + std::string(text) + "\": unknown agent \"" + spec.name +
                    "\" (available: " + available + ")");
}

std::string agentCatalog() {
  std::string text =
      "  random    uniform choice among all the legal actions; seeded from the game seed\n"
      "  rule      rule-based: plays the best-scored action (attacks by expected result, fire at\n"
      "            the most valuable targets, objectives, cover, guns and generals kept back);\n"
      "            rule:prune=0 may also step a unit back into a hex it has just left\n"
      "  mcts      Monte Carlo tree search with chance nodes, guided by the rule heuristics:\n"
      "            mcts:sims=800,threads=1,cpuct=1.5,temperature=0.5,rollout=1,policy=rule,\n"
      "            nodes=4194304,reuse=1,prune=1   (docs/agents.md; prune=0: steps back too)\n"
      "            budgets of any search: sims=N per decision, or ms=T per decision, or\n"
      "            turn_ms=T per player-turn, shared out over its decisions\n"
      "            any search: noise=ALPHA,noise_fraction=0.25 (Dirichlet noise at the root),\n"
      "            gumbel=1,gumbel_actions=16,gumbel_scale=1 (Gumbel root search for small "
      "budgets;\n"
      "            gumbel_scale=0 plays greedily)\n";
  for (const RegisteredKind& k : registeredKinds()) text += k.catalog;
  return text;
}

}  // namespace morne::agents
