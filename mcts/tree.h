#pragma once
// The search tree: a flat pool of nodes, children of a node stored contiguously. Nodes hold no
// game state (the search replays the edges from the root state), which keeps a node at 40 bytes
// and the memory of a search bounded by `max_nodes`.
//
//   root (decision, blue) -- action edges --> children (decision or chance nodes)
//   chance node           -- outcome edges --> children, `prior` = exact probability
//
// Values are kept from blue's point of view; a decision node's `player` says who chooses there.

#include <cstdint>
#include <vector>

#include "env/action.h"
#include "env/game_state.h"

namespace morne::mcts {

enum class NodeKind : uint8_t { kUnexpanded, kDecision, kChance, kTerminal };

struct Node {
  int32_t first_child = -1;
  uint16_t num_children = 0;
  NodeKind kind = NodeKind::kUnexpanded;
  uint8_t player = 0;      // decision nodes: the side to move
  env::Action action;      // the edge from the parent when the parent is a decision node
  int8_t outcome = 0;      // the edge from the parent when the parent is a chance node
  uint16_t in_flight = 0;  // simulations through the node waiting for their leaf's value
  float prior = 0;         // prior of the action, or probability of the outcome
  int32_t visits = 0;
  double value_sum = 0;  // sum of the backed-up values, blue's point of view
  uint64_t hash = 0;     // hash of the node's state, once expanded (tree reuse)

  double meanValue() const { return visits ? value_sum / visits : 0.0; }
};
static_assert(sizeof(Node) == 40, "a node stays 40 bytes: the pool's size is counted in them");

class Tree {
 public:
  explicit Tree(size_t max_nodes) : max_nodes_(max_nodes) {}

  // Starts a fresh tree at `root`.
  void reset(const env::GameState& root);

  // Re-roots the tree on the node whose state is `root` (same hash), keeping its subtree and
  // dropping the rest. Returns false (and leaves the tree as it was) when no node matches.
  bool reuse(const env::GameState& root);

  const env::GameState& rootState() const { return root_state_; }
  Node& node(int i) { return nodes_[static_cast<size_t>(i)]; }
  const Node& node(int i) const { return nodes_[static_cast<size_t>(i)]; }
  size_t size() const { return nodes_.size(); }
  bool full() const { return nodes_.size() >= max_nodes_; }

  // Appends `count` children for `parent`; returns the index of the first, or -1 when the pool
  // would exceed max_nodes (the parent then stays a leaf).
  int addChildren(int parent, int count);

 private:
  void rerootAt(int index);

  size_t max_nodes_;
  std::vector<Node> nodes_;
  env::GameState root_state_;
};

}  // namespace morne::mcts
