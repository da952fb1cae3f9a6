#include "engine/search_thread.h"

#include <utility>

namespace morne::engine {

void SearchThread::start(std::function<void()> search, std::function<void()> finish) {
  search_ = std::move(search);
  finish_ = std::move(finish);
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  wake_.notify_all();
}

void SearchThread::close() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SearchThread::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return search_ != nullptr || closing_; });
    if (closing_) return;
    const std::function<void()> search = std::exchange(search_, nullptr);
    const std::function<void()> finish = std::exchange(finish_, nullptr);
    lock.unlock();
    search();
    lock.lock();
    finish();
  }
}

}  // namespace morne::engine
