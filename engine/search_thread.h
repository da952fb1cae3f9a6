#pragma once
// The thread an engine session runs its searches on, one at a time, so that the session keeps
// taking requests (and "stop") while an agent thinks. The caller's mutex guards the session:
// a search's body runs without it, its ending with it held.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace morne::engine {

class SearchThread {
 public:
  // `session_mutex` is the lock of the session the searches belong to.
  explicit SearchThread(std::mutex& session_mutex) : mutex_(session_mutex) {}
  // Stops taking searches and waits for the one in progress; see close().
  ~SearchThread() { close(); }
  SearchThread(const SearchThread&) = delete;
  SearchThread& operator=(const SearchThread&) = delete;

  // With the session's lock held: runs `search` on the thread (started on first use) without
  // the lock, then `finish` with it. One search at a time: the caller starts the next from
  // `finish` or after it.
  void start(std::function<void()> search, std::function<void()> finish);

  // Without the session's lock: no search starts after this; waits for the one in progress
  // (the caller has asked it to stop).
  void close();

 private:
  void loop();

  std::mutex& mutex_;
  std::condition_variable wake_;
  std::function<void()> search_;  // the search to start, if any
  std::function<void()> finish_;
  bool closing_ = false;
  std::thread thread_;
};

}  // namespace morne::engine
