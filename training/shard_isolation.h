#pragma once
// Reading shards without trusting libhdf5 with damaged bytes. On some damaged files the HDF5
// library crashes (SIGSEGV in its B-tree or heap code) or loops forever; no check before the
// read can rule that out. So a shard a process has not read before is first read in a child
// process (fork, no exec), which reports what it read through a pipe and ends with _exit:
// a crash or a hang there is a refusal naming the file, and the process goes on.
//
// Every in-process HDF5 call of morne holds hdf5Mutex(), and readIsolated() forks while holding
// it, so that a child never inherits the library in the middle of another thread's call.

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace morne::training {

// The lock every in-process call into libhdf5 holds (shard_file.cpp, shard_reader.cpp).
std::recursive_mutex& hdf5Mutex();

// Runs `read` in a child process and returns what it returned. The child's default signal
// actions are restored (a crash ends it, whatever handlers the parent installed), and it is
// killed after `seconds`. Throws the ConfigError or IoError that `read` threw (its message),
// ConfigError "PATH: damaged: ..." when the child crashed, was killed for time, or ended
// without a report, and IoError when no child process can be made.
std::string readIsolated(const std::string& path, const std::function<std::string()>& read,
                         double seconds);

// The time a child may take to read a shard of `bytes` bytes whole: 60 s, plus 1 s per MiB.
double isolatedReadSeconds(uint64_t bytes);

}  // namespace morne::training
