#pragma once
// A vector with a compile-time capacity and no heap storage, for legal-action lists, chance
// outcome lists and event logs on the hot path (Stockfish's MoveList idea).

#include <array>
#include <cassert>
#include <cstddef>

namespace morne::env {

template <typename T, size_t N>
class FixedVector {
 public:
  // Appends; precondition: size() < N (checked by assert; capacities are sized for the rules).
  void push_back(const T& value) {
    assert(size_ < N);
    items_[size_++] = value;
  }
  void clear() { size_ = 0; }
  // Keeps the first n items; precondition: n <= size().
  void truncate(size_t n) {
    assert(n <= size_);
    size_ = n;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  static constexpr size_t capacity() { return N; }
  T& operator[](size_t i) { return items_[i]; }
  const T& operator[](size_t i) const { return items_[i]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

 private:
  std::array<T, N> items_;
  size_t size_ = 0;
};

}  // namespace morne::env
