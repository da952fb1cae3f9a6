#pragma once
// A bound on the searches that run at once across the sessions of a server (morne serve): a
// search waits for a free slot, so that many games at once share the cores instead of
// oversubscribing them.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace morne::engine {

class SearchSlots {
 public:
  explicit SearchSlots(int slots) : free_(slots) {}

  // Waits for a free slot and takes it; gives up when *stop becomes true (then returns false:
  // the search runs at once, to answer its stop).
  bool acquire(const std::atomic<bool>& stop) {
    std::unique_lock lock(mutex_);
    while (free_ == 0) {
      if (stop.load()) return false;
      freed_.wait_for(lock, std::chrono::milliseconds(20));
    }
    --free_;
    return true;
  }

  void release() {
    {
      std::lock_guard lock(mutex_);
      ++free_;
    }
    freed_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  int free_;
};

}  // namespace morne::engine
