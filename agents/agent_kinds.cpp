#include "agents/agent_kinds.h"

#include <algorithm>
#include <array>
#include <set>

#include "agents/external_agent.h"
#include "agents/greedy_agent.h"
#include "agents/mcts_agent.h"
#include "agents/network_agent.h"
#include "agents/random_agent.h"
#include "agents/rule_agent.h"
#include "env/error.h"

namespace morne::agents {

namespace {

const std::array kKinds = {
    AgentKind{"random", "uniform choice among all the legal actions; seeded from the game seed",
              randomAgentParameters, makeRandomAgent, nullptr},
    AgentKind{"rule",
              "rule-based: plays the best-scored action (attacks by expected result, fire at "
              "the most valuable targets, objectives, cover, guns and generals kept back)",
              ruleAgentParameters, makeRuleAgent, nullptr},
    AgentKind{"greedy",
              "one ply of expectimax: the action whose expected static evaluation over the "
              "dice that follow is best (the worked example of docs/agents.md)",
              greedyAgentParameters, makeGreedyAgent, nullptr},
    AgentKind{"mcts",
              "Monte Carlo tree search with chance nodes, guided by the rule heuristics "
              "(docs/agents.md)",
              mctsAgentParameters, makeMctsAgent, nullptr},
    AgentKind{"az", "search guided by a policy-value network (docs/agents.md)",
              networkAgentParameters, makeNetworkAgent, networkLockstepSearch},
    AgentKind{"ext",
              "a program of one's own that speaks the engine protocol on stdin and stdout, one "
              "per game (docs/agents.md, \"Agents of your own\")",
              externalAgentParameters, makeExternalAgent, nullptr, true},
};

const AgentKind& kindOf(const AgentSpec& spec, std::string_view text) {
  for (const AgentKind& k : kKinds) {
    if (k.name == spec.name) return k;
  }
  std::string available;
  for (const AgentKind& k : kKinds)
    available += (available.empty() ? "" : ", ") + std::string(k.name);
  throw ConfigError("agent spec \"" + std::string(text) + "\": unknown agent \"" + spec.name +
                    "\" (available: " + available + ")");
}

// Words of `text` wrapped at `width` columns, each line after `indent`.
std::string wrapped(const std::vector<std::string>& words, const std::string& indent,
                    size_t width) {
  std::string out, line;
  for (const std::string& w : words) {
    if (!line.empty() && indent.size() + line.size() + 1 + w.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) out.emplace_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

}  // namespace

std::span<const AgentKind> agentKinds() { return kKinds; }

std::unique_ptr<Agent> makeAgent(std::string_view text, uint64_t seed) {
  const AgentSpec spec = parseAgentSpec(text);
  return kindOf(spec, text).make(spec, seed);
}

std::optional<BatchedSearch> makeBatchedSearch(std::string_view text) {
  const AgentSpec spec = parseAgentSpec(text);
  const AgentKind& kind = kindOf(spec, text);
  if (!kind.lockstep) return std::nullopt;
  return kind.lockstep(spec);
}

bool startsProgram(std::string_view text) {
  const AgentSpec spec = parseAgentSpec(text);
  return kindOf(spec, text).starts_program;
}

std::string agentCatalog() {
  const std::string indent(12, ' ');
  std::string text;
  std::set<std::pair<std::string, std::string>> explained;  // key, help
  std::set<std::string> keys;
  std::string help;
  for (const AgentKind& k : kKinds) {
    std::string name(k.name);
    name.resize(10, ' ');
    text += wrapped(words(k.summary), indent, 100).replace(0, indent.size(), "  " + name);
    std::vector<std::string> defaults;
    for (const SpecParamInfo& p : k.parameters()) {
      defaults.push_back(p.key + "=" + p.default_text);
      if (!explained.insert({p.key, p.help}).second) continue;
      // A key that means something else in another kind is explained again, under that kind.
      std::string key =
          keys.insert(p.key).second ? p.key : p.key + " (" + std::string(k.name) + ")";
      key.resize(std::max<size_t>(16, key.size() + 1), ' ');
      help += "  " + key + p.help + "\n";
    }
    if (!defaults.empty()) text += wrapped(defaults, indent, 100);
  }
  return text + "parameters (NAME:key=value,...):\n" + help;
}

}  // namespace morne::agents
