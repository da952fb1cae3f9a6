#pragma once
// Reading shards without trusting libhdf5 with damaged bytes. On some damaged files the HDF5
// library crashes (SIGSEGV in its B-tree or heap code) or loops forever; no check before the
// read can rule that out. So a shard a process has not read before is first read in a child
// process (fork, no exec), which sends what it read through a pipe and ends with _exit: a
// crash or a hang there is a refusal naming the file, and the process goes on. A fork costs
// tens of milliseconds in a large process, so many shards are read in one child
// (training_data.h, ShardSummaries::prefetch).
//
// Every in-process HDF5 call of morne holds hdf5Mutex(), and the child is forked while holding
// it, so that it never inherits the library in the middle of another thread's call.

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace morne::training {

// The lock every in-process call into libhdf5 holds (shard_file.cpp, shard_reader.cpp).
std::recursive_mutex& hdf5Mutex();

// What a child process is given to send its results: each message reaches the parent whole,
// in order, as soon as it is sent.
using SendToParent = std::function<void(const std::string& message)>;

// Runs `read(send)` in a child process, calling `received(message)` here for each message it
// sends. The child's default signal actions are restored (a crash ends it, whatever handlers
// this process installed), and it is killed when it sends nothing for `idle_seconds`. Returns
// "" when `read` returned, else why the child ended without that ("the HDF5 library crashed
// reading it (signal 11, Segmentation fault)", "the HDF5 library was still reading it after
// 60 s (...)", "... status N ..."): a std::exception thrown by `read` ends it so, with its
// message. Throws IoError when no child process can be made.
std::string runIsolated(const std::function<void(const SendToParent& send)>& read,
                        const std::function<void(const std::string& message)>& received,
                        double idle_seconds);

// Runs `read` in a child process and returns what it returned. Throws the ConfigError or
// IoError that `read` threw (its message), and ConfigError "PATH: damaged: ..." when the child
// ended otherwise (runIsolated's reason).
std::string readIsolated(const std::string& path, const std::function<std::string()>& read,
                         double idle_seconds);

// The time a child may take to read a shard of `bytes` bytes whole: 60 s, plus 1 s per MiB.
double isolatedReadSeconds(uint64_t bytes);

}  // namespace morne::training
