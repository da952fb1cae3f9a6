// Agents and the game loop: agent specs and their parameters, legality of every choice in whole
// games, determinism under a seed (threads included), the rule agent's edge over random play.

#include "agents/game_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/agent_spec.h"
#include "agents/mcts_agent.h"
#include "agents/search_agent.h"
#include "env/agent_actions.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "tests/agents/legality_checker.h"

namespace morne::test {
namespace {

TEST(Agents, SpecParsing) {
  const agents::AgentSpec spec = agents::parseAgentSpec("mcts:sims=800, cpuct=1.2");
  EXPECT_EQ(spec.name, "mcts");
  EXPECT_EQ(spec.params.at("sims"), "800");
  EXPECT_EQ(spec.params.at("cpuct"), "1.2");
  EXPECT_THROW(agents::parseAgentSpec(":x=1"), ConfigError);
  EXPECT_THROW(agents::parseAgentSpec("mcts:sims"), ConfigError);
  EXPECT_THROW(agents::parseAgentSpec("mcts:a=1,a=2"), ConfigError);
  // One budget in place of the spec's own, whichever it was.
  EXPECT_EQ(agents::withBudget("mcts:ms=50,cpuct=2", "sims", 300), "mcts:cpuct=2,sims=300");
  EXPECT_EQ(agents::withBudget("az:model=x.pt,sims=8,turn_ms=9", "ms", 200),
            "az:model=x.pt,ms=200");
  EXPECT_EQ(agents::withBudget("rule", "ms", 5), "rule:ms=5");
  // A network added to a spec keeps the spec's text; what a spec cannot carry is refused.
  EXPECT_EQ(agents::withModel("az", "runs/a/nets/gen-001.pt"), "az:model=runs/a/nets/gen-001.pt");
  EXPECT_EQ(agents::withModel("az:sims=32", "n.pt"), "az:sims=32,model=n.pt");
  for (const char* path : {"a,b.pt", "c:/n.pt", "my nets/n.pt", ""})
    EXPECT_THROW(agents::withModel("az:sims=32", path), ConfigError) << path;
  EXPECT_THROW(agents::withModel("az:model=x.pt", "n.pt"), ConfigError);
  EXPECT_THROW(agents::withModel("az:sims", "n.pt"), ConfigError);
  EXPECT_THROW(agents::makeAgent("alphago", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("random:depth=3", 1), ConfigError);
  EXPECT_EQ(agents::makeAgent("random", 1)->spec(), "random");
  // prune=0: the agent may step units back (docs/actions.md); the spec says so.
  EXPECT_EQ(agents::makeAgent("rule:prune=0", 1)->spec(), "rule:prune=0");
  EXPECT_EQ(agents::makeAgent("rule:prune=1", 1)->spec(), "rule");
  EXPECT_THROW(agents::makeAgent("rule:prune=2", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("rule:depth=2", 1), ConfigError);
  EXPECT_NE(agents::makeAgent("mcts:sims=10,prune=0", 1)->spec().find(",prune=0"),
            std::string::npos);
}

TEST(Agents, RandomAgentsPlayLegalCompleteGames) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    auto blue = agents::makeAgent("random", 1);
    auto orange = agents::makeAgent("random", 2);
    LegalityChecker checker;
    const agents::GameSummary g = agents::playGame(*sc, *blue, *orange, 7, &checker);
    EXPECT_EQ(static_cast<size_t>(checker.plies), g.plies.size());
    EXPECT_GT(g.decisions, 10);
  }
}

TEST(Agents, SameSeedSameGame) {
  const auto sc = env::loadScenario("crossing");
  auto play = [&](uint64_t seed) {
    auto blue = agents::makeAgent("random", agents::agentSeed(seed, 0));
    auto orange = agents::makeAgent("random", agents::agentSeed(seed, 1));
    return agents::playGame(*sc, *blue, *orange, seed, nullptr);
  };
  const agents::GameSummary a = play(5);
  const agents::GameSummary b = play(5);
  const agents::GameSummary c = play(6);
  EXPECT_EQ(a.final_hash, b.final_hash);
  ASSERT_EQ(a.plies.size(), b.plies.size());
  for (size_t i = 0; i < a.plies.size(); ++i) {
    EXPECT_EQ(a.plies[i].chance, b.plies[i].chance);
    EXPECT_EQ(a.plies[i].action, b.plies[i].action);
    EXPECT_EQ(a.plies[i].outcome, b.plies[i].outcome);
  }
  EXPECT_NE(a.final_hash, c.final_hash);
  EXPECT_NE(agents::agentSeed(5, 0), agents::agentSeed(5, 1));
}

agents::GameSummary play(const env::Scenario& sc, const std::string& blue,
                         const std::string& orange, uint64_t seed,
                         agents::GameObserver* observer = nullptr) {
  auto b = agents::makeAgent(blue, agents::agentSeed(seed, 0));
  auto o = agents::makeAgent(orange, agents::agentSeed(seed, 1));
  return agents::playGame(sc, *b, *o, seed, observer);
}

TEST(RuleAndMcts, EveryChosenActionIsLegal) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    LegalityChecker checker;
    const std::string mcts =
        std::string(name) == "duel" ? "mcts:sims=40" : "mcts:sims=20,rollout=0";
    const agents::GameSummary g = play(*sc, "rule", mcts, 3, &checker);
    EXPECT_EQ(static_cast<size_t>(checker.plies), g.plies.size()) << name;
    EXPECT_GT(g.side_decisions[0], 10) << name;
    EXPECT_GT(g.side_decisions[1], 10) << name;
  }
}

TEST(RuleAndMcts, SameSeedSameGame) {
  const auto sc = env::loadScenario("duel");
  for (const char* spec : {"rule", "mcts:sims=100", "mcts:sims=100,threads=2",
                           "mcts:sims=200,rollout=0", "mcts:sims=50,policy=random"}) {
    const agents::GameSummary a = play(*sc, spec, "random", 11);
    const agents::GameSummary b = play(*sc, spec, "random", 11);
    EXPECT_EQ(a.final_hash, b.final_hash) << spec;
    EXPECT_EQ(a.plies.size(), b.plies.size()) << spec;
  }
}

TEST(RuleAndMcts, SpecParametersAreChecked) {
  EXPECT_THROW(agents::makeAgent("rule:depth=2", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("mcts:sims=0", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("mcts:sims=abc", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("mcts:cpuct=-1", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("mcts:policy=smart", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("mcts:simulations=10", 1), ConfigError);
  const auto p = agents::parseMctsParams(
      {{"ms", "250"}, {"threads", "2"}, {"rollout", "1"}, {"policy", "random"}});
  EXPECT_EQ(p.search.milliseconds, 250);
  EXPECT_EQ(p.search.threads, 2);
  EXPECT_EQ(p.rollout, 1);
  EXPECT_EQ(p.policy, agents::RolloutPolicy::kRandom);
  EXPECT_EQ(agents::makeAgent("mcts:sims=100,threads=2", 1)->spec(),
            "mcts:sims=100,cpuct=1.5,threads=2,temperature=0.5,scale=0,rollout=1,policy=rule");
}

// Dithering: agents choose from env::agentActions, so neither the rule agent nor the search
// undoes a unit's previous step without a reason; random play, which picks among all legal
// actions, does (which shows the counter sees reversals).
TEST(StepCounter, RuleAndSearchAgentsNeverStepBackOnEveryScenario) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    for (const auto& [blue, orange] :
         {std::pair{"rule", "mcts:sims=40"}, std::pair{"mcts:sims=40", "rule"}}) {
      const agents::GameSummary g = play(*sc, blue, orange, 1);
      for (int side = 0; side < env::kNumSides; ++side) {
        const agents::StepCounts& c = g.steps[static_cast<size_t>(side)];
        EXPECT_GE(c.steps, 5) << name << " side " << side;
        // Only the straight steps back the rules give a reason for remain (env/agent_actions.h):
        // a handful in a thousand steps at most (none in these games today).
        EXPECT_LE(c.reversals, c.steps / 100)
            << name << " " << blue << " vs " << orange << " side " << side;
        EXPECT_LE(c.revisits, c.steps / 20) << name << " " << blue << " vs " << orange;
      }
    }
    const agents::GameSummary r = play(*sc, "random", "random", 1);
    EXPECT_GT(r.steps[0].reversals + r.steps[1].reversals, 0) << name;
    EXPECT_GE(r.steps[0].revisits, r.steps[0].reversals) << name;
  }
}

// A per-turn budget (turn_ms) is a budget of its own: it reads back from the spec, excludes
// ms, and a kept agent changes its budget without being rebuilt.
TEST(SearchBudget, TurnBudgetParsesAndChanges) {
  auto a = agents::makeAgent("mcts:turn_ms=300", 1);
  EXPECT_EQ(a->spec().rfind("mcts:turn_ms=300,cpuct=1.5", 0), 0u) << a->spec();
  EXPECT_THROW(agents::makeAgent("mcts:ms=10,turn_ms=300", 1), ConfigError);
  EXPECT_THROW(agents::makeAgent("mcts:turn_ms=300,gumbel=1", 1), ConfigError);
  a->setBudget({{"sims", "40"}});
  EXPECT_EQ(a->spec().rfind("mcts:sims=40,", 0), 0u) << a->spec();
  a->setBudget({});
  EXPECT_EQ(a->spec().rfind("mcts:sims=800,", 0), 0u) << a->spec();
  EXPECT_THROW(a->setBudget({{"cpuct", "2"}}), ConfigError);
  EXPECT_THROW(agents::makeAgent("rule", 1)->setBudget({{"ms", "5"}}), ConfigError);
}

// The decisions a per-turn budget is shared over: at the start of a movement phase every unit
// that can step counts 1.5, plus the end of the phase and a reserve for the later phases.
TEST(SearchBudget, ExpectedDecisionsCountTheUnitsThatCanAct) {
  const auto sc = env::loadScenario("duel");
  env::GameState s = env::newGame(*sc);
  while (s.phase != env::Phase::kMovement || s.isChanceNode()) {
    env::ActionList legal;
    env::legalActions(s, legal);
    env::applyAction(s, legal[0]);
  }
  env::ActionList actions;
  env::agentActions(s, actions);
  std::set<env::CellId> steppers;
  int units = 0;
  for (const env::Action& a : actions) steppers.insert(a.cell);
  steppers.erase(env::kNoCell);
  for (int u = 0; u < s.num_units; ++u) units += s.sideOf(u) == s.side && s.onMap(u);
  EXPECT_DOUBLE_EQ(agents::expectedDecisions(s, std::span(actions.begin(), actions.size())),
                   1 + 1.5 * static_cast<double>(steppers.size()) + units / 4.0);
}

// Without the pruning the agents step back again: what prune=0 is for (measuring the pruning).
TEST(StepCounter, PruneZeroBringsTheStepsBackBack) {
  const auto sc = env::loadScenario("crossing");
  const agents::GameSummary g = play(*sc, "rule:prune=0", "rule", 1);
  // The pruned side keeps only the steps back the rules give a reason for (out of the bridge's
  // passing hex just taken, on crossing): far fewer.
  EXPECT_GT(g.steps[0].reversals, 4 * g.steps[1].reversals + 4)
      << g.steps[0].reversals << " against " << g.steps[1].reversals;
}

TEST(RuleAgent, BeatsRandomPlayOnEveryScenario) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    int wins = 0;
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      wins += play(*sc, "rule", "random", seed).result.winner == 0;
      wins += play(*sc, "random", "rule", seed).result.winner == 1;
    }
    EXPECT_GE(wins, 9) << name;
  }
}

TEST(RuleAgent, DecisionReportsEveryCandidateWithItsScore) {
  const auto sc = env::loadScenario("duel");
  const env::GameState s = env::newGame(*sc);
  auto rule = agents::makeAgent("rule", 1);
  const agents::Decision d = rule->decide(s);
  env::ActionList legal;
  env::legalActions(s, legal);
  // Every legal action is a candidate, once; the one chosen has the best score.
  ASSERT_EQ(d.info.children.size(), legal.size());
  std::vector<env::Action> candidates, legal_actions(legal.begin(), legal.end());
  double best = -1e9;
  for (const mcts::RootChild& c : d.info.children) {
    candidates.push_back(c.action);
    best = std::max(best, c.value);
  }
  std::sort(candidates.begin(), candidates.end());
  std::sort(legal_actions.begin(), legal_actions.end());
  EXPECT_EQ(candidates, legal_actions);
  const auto chosen = std::find_if(d.info.children.begin(), d.info.children.end(),
                                   [&](const mcts::RootChild& c) { return c.action == d.action; });
  ASSERT_NE(chosen, d.info.children.end()) << "the chosen action is not among the candidates";
  EXPECT_EQ(chosen->value, best);
}

}  // namespace
}  // namespace morne::test
