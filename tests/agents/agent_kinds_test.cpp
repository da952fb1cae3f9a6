// The table of agent kinds and their parameter rows (agents/agent_kinds.h,
// agents/spec_params.h): every parameter of every kind reads back from the spec an agent
// writes of itself, parse(spec(parse(s))) == parse(s), and bad values are refused with the
// accepted range.

#include "agents/agent_kinds.h"

#include <gtest/gtest.h>

#include "agents/network_agent.h"
#include "env/error.h"
#include "mcts/evaluator.h"

namespace morne::agents {
namespace {

// A network that is never asked anything: the az agents are only made, not run.
class UnusedNetwork : public mcts::BatchEvaluator {
 public:
  void evaluate(std::span<const mcts::LeafRequest* const>, std::span<double>) override {}
};

// A valid value of `p` other than its default, as spec text.
std::string otherValue(const SpecParamInfo& p) {
  if (p.text) return "other.pt";
  if (!p.choices.empty()) return p.choices[p.default_text == p.choices[0] ? 1 : 0];
  const double v = std::stod(p.default_text);
  if (v != p.lo) return shortestNumber(p.lo);
  return shortestNumber(p.integer ? p.lo + 1 : p.lo + (p.hi - p.lo) / 4);
}

TEST(AgentKinds, EveryParameterReadsBackFromTheAgentsOwnSpec) {
  setNetworkLoader([](const NetworkLoad&) { return std::make_unique<UnusedNetwork>(); });
  int checked = 0;
  for (const AgentKind& kind : agentKinds()) {
    const std::string name(kind.name);
    // The kinds that need a parameter: a network file (never loaded here), a program to run.
    const std::string required_key = name == "az" ? "model" : name == "ext" ? "cmd" : "";
    const std::string base = name == "az" ? "model=net.pt" : name == "ext" ? "cmd=true" : "";
    EXPECT_FALSE(makeAgent(name + (base.empty() ? "" : ":" + base), 1)->spec().empty());
    for (const SpecParamInfo& p : kind.parameters()) {
      const std::string value = name == "ext" && p.key == "cmd" ? "false" : otherValue(p);
      std::string spec = name + ":" + p.key + "=" + value;
      if (!base.empty() && p.key != required_key) spec += "," + base;
      const std::string written = makeAgent(spec, 1)->spec();
      EXPECT_NE(
          ("," + written.substr(written.find(':') + 1) + ",").find("," + p.key + "=" + value + ","),
          std::string::npos)
          << spec << " wrote " << written;
      EXPECT_EQ(makeAgent(written, 1)->spec(), written) << spec;
      ++checked;
    }
  }
  // rule, greedy, ext, the search parameters of mcts and az, their own
  EXPECT_GE(checked, 1 + 1 + 3 + 13 + 4 + 14);
}

// `morne help` explains every parameter of every kind: a key that two kinds share with another
// meaning is explained under each.
TEST(AgentKinds, TheCatalogExplainsEveryParameterOfEveryKind) {
  const std::string catalog = agentCatalog();
  for (const AgentKind& kind : agentKinds()) {
    EXPECT_NE(catalog.find("  " + std::string(kind.name) + " "), std::string::npos) << kind.name;
    for (const SpecParamInfo& p : kind.parameters()) {
      std::string first_words = p.help.substr(0, 40);  // before the catalog wraps the line
      EXPECT_NE(catalog.find(first_words), std::string::npos) << kind.name << ":" << p.key;
    }
  }
}

TEST(AgentKinds, BadValuesNameTheAcceptedRange) {
  try {
    makeAgent("mcts:threads=0", 1);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "mcts: threads=0 is not an integer in 1..256");
  }
  EXPECT_THROW(makeAgent("mcts:sims=2.5", 1), ConfigError);
  EXPECT_THROW(makeAgent("mcts:policy=smart", 1), ConfigError);
  EXPECT_THROW(makeAgent("rule:prune=2", 1), ConfigError);
  EXPECT_THROW(makeAgent("chess", 1), ConfigError);
}

TEST(AgentKinds, OnlyNetworkAgentsHaveALockstepForm) {
  setNetworkLoader([](const NetworkLoad&) { return std::make_unique<UnusedNetwork>(); });
  EXPECT_FALSE(makeBatchedSearch("mcts:sims=10"));
  EXPECT_FALSE(makeBatchedSearch("rule"));
  const auto az = makeBatchedSearch("az:model=net.pt,sims=12");
  ASSERT_TRUE(az);
  EXPECT_EQ(az->search.simulations, 12);
  // precision=auto loads in float32 in lock-step (data that do not depend on the CPU), as
  // asked otherwise; a play-time agent hands auto to the loader, which picks by the CPU.
  std::vector<NetworkPrecision> loaded;
  setNetworkLoader([&loaded](const NetworkLoad& what) {
    loaded.push_back(what.precision);
    return std::make_unique<UnusedNetwork>();
  });
  makeBatchedSearch("az:model=net.pt")->make_evaluator(4);
  makeBatchedSearch("az:model=net.pt,precision=bf16")->make_evaluator(4);
  makeAgent("az:model=net.pt", 1);
  EXPECT_EQ(loaded.at(1), NetworkPrecision::kFloat32);
  EXPECT_EQ(loaded.at(3), NetworkPrecision::kBFloat16);
  EXPECT_EQ(loaded.at(4), NetworkPrecision::kAuto);
  // The mixed leaf evaluation needs the heuristics at each leaf: play-time search only.
  for (const char* spec : {"az:model=net.pt,mix=0.5", "az:model=net.pt,rule_prior=0.2"}) {
    try {
      makeBatchedSearch(spec);
      ADD_FAILURE() << spec << " was accepted in lock-step";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("play-time search"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace morne::agents
