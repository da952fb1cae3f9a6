#include "mcts/workers.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

#ifdef MORNE_STD_THREADS
#include <thread>
#include <vector>
#else
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#endif

namespace morne::mcts {

#ifdef MORNE_STD_THREADS

void runOnWorkers(int count, const std::function<void(int)>& job) {
  std::exception_ptr error;
  std::mutex mutex;
  std::vector<std::thread> threads;
  for (int t = 0; t < count; ++t) {
    threads.emplace_back([&, t] {
      try {
        job(t);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

#else

void runOnWorkers(int count, const std::function<void(int)>& job) {
  if (count <= 1) {
    if (count == 1) job(0);
    return;
  }
  tbb::task_arena arena(count);
  arena.execute([&] { tbb::parallel_for(0, count, 1, [&](int t) { job(t); }); });
}

#endif

void forEachInParallel(int workers, int n, const std::function<void(int)>& job) {
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  runOnWorkers(std::max(1, std::min(workers, n)), [&](int) {
    for (int i = next++; i < n && !failed; i = next++) {
      try {
        job(i);
      } catch (...) {
        failed = true;
        throw;
      }
    }
  });
}

}  // namespace morne::mcts
