#pragma once
// The settings of a search (mcts/search.h, mcts/tree_search.h), as agent specs set them
// (agents/search_agent.h: sims, ms, cpuct, threads, nodes, reuse, noise, gumbel, ...).

#include <cstddef>

namespace morne::mcts {

struct SearchParams {
  int simulations = 800;               // per decision, over all threads; ignored with a time budget
  double milliseconds = 0;             // > 0: search each decision for this long instead
  double turn_milliseconds = 0;        // > 0: a time budget per player-turn, shared out over its
                                       // decisions by the agent (agents/search_agent.h)
  double cpuct = 1.5;                  // exploration constant of PUCT
  double fpu_reduction = 0.2;          // unvisited actions start at the parent's value minus this
  int threads = 1;                     // root-parallel trees
  size_t max_nodes = size_t{1} << 22;  // per tree (40 bytes a node: 160 MB)
  bool reuse_tree = true;
  bool prune = true;  // choose among env::agentActions; false: every legal action (steps back)

  // Leaves evaluated together (mcts/tree_search.h, "Batches of leaves"): each thread gathers up
  // to `batch` leaves, steering its later descents away from the earlier ones by counting each
  // simulation in flight as `virtual_loss` lost visits, then evaluates them in one call.
  // 1: one leaf at a time. A Gumbel root search gathers one.
  int batch = 1;
  double virtual_loss = 1;

  // Dirichlet noise at the root (self-play exploration): 0 = none.
  double noise_alpha = 0;
  double noise_fraction = 0.25;

  // Gumbel root search (mcts/tree_search.h): for small budgets; one thread, simulations only.
  bool gumbel = false;
  int gumbel_actions = 16;    // actions sampled at the root
  double gumbel_scale = 1;    // scale of the Gumbel noise: 1 samples (self-play), 0 plays greedily
  double gumbel_cvisit = 50;  // sigma(q) = (cvisit + max visits) x cscale x q
  double gumbel_cscale = 1;
};

}  // namespace morne::mcts
