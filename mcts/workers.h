#pragma once
// The one place morne starts threads for parallel work: the search's root-parallel trees, the
// arena's games and self-play's workers all run through these two calls.
//
// They run on TBB (a task arena of the requested size) in normal builds. A build with
// MORNE_STD_THREADS (CMake option, used by the ThreadSanitizer pass of scripts/test.sh) runs
// the same jobs on plain std::threads instead: Debian's TBB is built without ThreadSanitizer,
// whose reports on TBB's internal synchronisation are false, and the race detector then sees
// only morne's own code.

#include <functional>

namespace morne::mcts {

// Runs job(0) .. job(count - 1), one per worker, concurrently, and returns when all are done.
// The first exception a job throws is rethrown here once all have stopped.
void runOnWorkers(int count, const std::function<void(int)>& job);

// Runs job(0) .. job(n - 1) on `workers` threads, each taking the next index as it becomes
// free. After a job throws, no further index is started; the first exception is rethrown.
void forEachInParallel(int workers, int n, const std::function<void(int)>& job);

}  // namespace morne::mcts
