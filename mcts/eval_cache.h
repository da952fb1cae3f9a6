#pragma once
// A cache of evaluations keyed by the state hash, in front of a BatchEvaluator: positions that
// recur (transpositions within a phase, the same position searched by both sides, a node
// evaluated again once its tree is full) are evaluated once. Direct-mapped, fixed size, no
// allocation after construction: a new entry replaces the one in its slot. Positions with more
// legal actions than a slot holds are passed through uncached.

#include <cstdint>
#include <memory>
#include <vector>

#include "mcts/evaluator.h"

namespace morne::mcts {

class CachedBatchEvaluator : public BatchEvaluator {
 public:
  static constexpr int kMaxCachedActions = 128;

  // `entries` slots (rounded up to a power of two; 0 disables the cache).
  CachedBatchEvaluator(std::unique_ptr<BatchEvaluator> inner, size_t entries);

  void evaluate(std::span<const LeafRequest* const> leaves, std::span<double> values) override;

  // Leaves asked for, and those answered from the cache.
  int64_t requests() const { return requests_; }
  int64_t hits() const { return hits_; }
  // Batches sent to the inner evaluator and the positions in them (the average batch size).
  int64_t batches() const { return batches_; }
  int64_t evaluated() const { return evaluated_; }

 private:
  struct Entry {
    uint64_t hash = 0;
    uint16_t count = 0xFFFF;  // legal actions; 0xFFFF: empty slot
    double value = 0;
    float priors[kMaxCachedActions];
  };
  Entry* find(const LeafRequest& leaf);

  std::unique_ptr<BatchEvaluator> inner_;
  std::vector<Entry> entries_;
  uint64_t mask_ = 0;
  std::vector<const LeafRequest*> misses_;
  std::vector<size_t> miss_index_;
  std::vector<double> miss_values_;
  int64_t requests_ = 0, hits_ = 0, batches_ = 0, evaluated_ = 0;
};

}  // namespace morne::mcts
