#pragma once
// The OpenMP wait policy of LibTorch's intra-op threads. libgomp reads OMP_WAIT_POLICY once,
// when it loads (before main); unset, idle worker threads spin for a while before sleeping,
// and with two or more intra-op threads inference collapses 20-100x as soon as another process
// wants the cores (docs/agents.md, "Speed"). Users run morne on shared machines, so a command
// that is about to use more than one intra-op thread calls requirePassiveOpenMp(): when the
// variable is unset, the process re-executes itself with OMP_WAIT_POLICY=PASSIVE. A value the
// user set (ACTIVE, to measure the spinning default) is kept.

#include <string>

namespace morne::cli {

// Re-executes the process with OMP_WAIT_POLICY=PASSIVE when the variable is unset (does not
// return then). If the re-execution fails, carries on with a warning on stderr.
void requirePassiveOpenMp();

// "PASSIVE (set by morne)", "ACTIVE (from the environment)" or "unset (libgomp default: spin)".
std::string openMpPolicyText();

}  // namespace morne::cli
