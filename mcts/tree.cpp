#include "mcts/tree.h"

namespace morne::mcts {

void Tree::reset(const env::GameState& root) {
  nodes_.clear();
  nodes_.emplace_back();
  root_state_ = root;
}

bool Tree::reuse(const env::GameState& root) {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].kind != NodeKind::kUnexpanded && nodes_[i].hash == root.hash) {
      rerootAt(static_cast<int>(i));
      root_state_ = root;
      return true;
    }
  }
  return false;
}

int Tree::addChildren(int parent, int count) {
  if (nodes_.size() + static_cast<size_t>(count) > max_nodes_) return -1;
  const int first = static_cast<int>(nodes_.size());
  nodes_.resize(nodes_.size() + static_cast<size_t>(count));
  Node& p = nodes_[static_cast<size_t>(parent)];
  p.first_child = first;
  p.num_children = static_cast<uint16_t>(count);
  return first;
}

// Copies the subtree of `index` into a fresh pool, breadth first, keeping siblings contiguous.
void Tree::rerootAt(int index) {
  std::vector<Node> out;
  std::vector<int> from;
  out.push_back(nodes_[static_cast<size_t>(index)]);
  from.push_back(index);
  for (size_t i = 0; i < out.size(); ++i) {
    const Node& old = nodes_[static_cast<size_t>(from[i])];
    if (old.first_child < 0) continue;
    out[i].first_child = static_cast<int32_t>(out.size());
    for (int k = 0; k < old.num_children; ++k) {
      out.push_back(nodes_[static_cast<size_t>(old.first_child + k)]);
      from.push_back(old.first_child + k);
    }
  }
  nodes_.swap(out);
}

}  // namespace morne::mcts
