#include "agents/spec_params.h"

#include <charconv>
#include <cmath>

namespace morne::agents {

namespace {

using Row = SpecParam<mcts::SearchParams>;
using Kind = Row::Kind;

}  // namespace

const std::vector<SpecParam<mcts::SearchParams>>& searchParamRows() {
  static const std::vector<Row> rows = {
      {"sims",
       Kind::kInt,
       1,
       10'000'000,
       {},
       Shown::kBudget,
       "simulations per decision (reproducible on any machine)",
       MORNE_SPEC_FIELD(mcts::SearchParams, simulations)},
      {"ms",
       Kind::kNumber,
       0,
       3'600'000,
       {},
       Shown::kBudget,
       "instead: milliseconds per decision (one atomic action)",
       MORNE_SPEC_FIELD(mcts::SearchParams, milliseconds)},
      {"turn_ms",
       Kind::kNumber,
       0,
       3'600'000,
       {},
       Shown::kBudget,
       "instead: milliseconds per player-turn, shared out over its decisions",
       MORNE_SPEC_FIELD(mcts::SearchParams, turn_milliseconds)},
      {"cpuct",
       Kind::kNumber,
       0,
       100,
       {},
       Shown::kAlways,
       "exploration constant of PUCT",
       MORNE_SPEC_FIELD(mcts::SearchParams, cpuct)},
      {"threads",
       Kind::kInt,
       1,
       256,
       {},
       Shown::kAlways,
       "root-parallel search trees (threads)",
       MORNE_SPEC_FIELD(mcts::SearchParams, threads)},
      {"nodes",
       Kind::kInt,
       1000,
       100'000'000,
       {},
       Shown::kChanged,
       "node pool of each tree (40 bytes a node)",
       MORNE_SPEC_FIELD(mcts::SearchParams, max_nodes)},
      {"reuse",
       Kind::kInt,
       0,
       1,
       {},
       Shown::kChanged,
       "1: keep the tree from one decision to the next",
       MORNE_SPEC_FIELD(mcts::SearchParams, reuse_tree)},
      {"prune",
       Kind::kInt,
       0,
       1,
       {},
       Shown::kChanged,
       "1: no step back into a hex just left (docs/actions.md); 0: every legal action",
       MORNE_SPEC_FIELD(mcts::SearchParams, prune)},
      {"noise",
       Kind::kNumber,
       0,
       100,
       {},
       Shown::kChanged,
       "Dirichlet noise alpha at the root (0: none)",
       MORNE_SPEC_FIELD(mcts::SearchParams, noise_alpha)},
      {"noise_fraction",
       Kind::kNumber,
       0,
       1,
       {},
       Shown::kChanged,
       "weight of the noise in the root priors",
       MORNE_SPEC_FIELD(mcts::SearchParams, noise_fraction)},
      {"gumbel",
       Kind::kInt,
       0,
       1,
       {},
       Shown::kChanged,
       "1: Gumbel root search, for small budgets (sims only, one thread)",
       MORNE_SPEC_FIELD(mcts::SearchParams, gumbel)},
      {"gumbel_actions",
       Kind::kInt,
       1,
       1024,
       {},
       Shown::kChanged,
       "actions sampled at the Gumbel root",
       MORNE_SPEC_FIELD(mcts::SearchParams, gumbel_actions)},
      {"gumbel_scale",
       Kind::kNumber,
       0,
       10,
       {},
       Shown::kChanged,
       "scale of the Gumbel noise (0: plays greedily)",
       MORNE_SPEC_FIELD(mcts::SearchParams, gumbel_scale)},
  };
  return rows;
}

double specNumber(std::string_view agent, std::string_view key, const std::string& value,
                  bool integer, double lo, double hi) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || !(v >= lo && v <= hi) || (integer && v != std::floor(v))) {
    throw ConfigError(std::string(agent) + ": " + std::string(key) + "=" + value + " is not " +
                      (integer ? "an integer" : "a number") + " in " + shortestNumber(lo) + ".." +
                      shortestNumber(hi));
  }
  return v;
}

std::string shortestNumber(double v) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

}  // namespace morne::agents
