#include "mcts/eval_cache.h"

#include <algorithm>
#include <bit>

namespace morne::mcts {

CachedBatchEvaluator::CachedBatchEvaluator(std::unique_ptr<BatchEvaluator> inner, size_t entries)
    : inner_(std::move(inner)) {
  if (entries > 0) {
    entries_.resize(std::bit_ceil(entries));
    mask_ = entries_.size() - 1;
  }
}

CachedBatchEvaluator::Entry* CachedBatchEvaluator::find(const LeafRequest& leaf) {
  if (entries_.empty() || leaf.legal.size() > static_cast<size_t>(kMaxCachedActions))
    return nullptr;
  return &entries_[leaf.state->hash & mask_];
}

void CachedBatchEvaluator::evaluate(std::span<const LeafRequest* const> leaves,
                                    std::span<double> values) {
  misses_.clear();
  miss_index_.clear();
  for (size_t i = 0; i < leaves.size(); ++i) {
    const LeafRequest& leaf = *leaves[i];
    Entry* e = find(leaf);
    ++requests_;
    if (e) {
      if (e->hash == leaf.state->hash && e->count == leaf.legal.size()) {
        ++hits_;
        std::copy_n(e->priors, leaf.legal.size(), leaf.priors.begin());
        values[i] = e->value;
        continue;
      }
    }
    misses_.push_back(&leaf);
    miss_index_.push_back(i);
  }
  if (misses_.empty()) return;
  miss_values_.assign(misses_.size(), 0.0);
  inner_->evaluate(misses_, miss_values_);
  ++batches_;
  evaluated_ += static_cast<int64_t>(misses_.size());
  for (size_t m = 0; m < misses_.size(); ++m) {
    const LeafRequest& leaf = *misses_[m];
    values[miss_index_[m]] = miss_values_[m];
    if (Entry* e = find(leaf)) {
      e->hash = leaf.state->hash;
      e->count = static_cast<uint16_t>(leaf.legal.size());
      e->value = miss_values_[m];
      std::copy(leaf.priors.begin(), leaf.priors.end(), e->priors);
    }
  }
}

}  // namespace morne::mcts
