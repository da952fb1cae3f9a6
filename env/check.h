#pragma once
// MORNE_CHECK(condition, message): an invariant at a boundary between modules (the size of a
// buffer handed in, a precondition a caller must meet), checked in every build, Release
// included. A failure is a bug in morne, not bad input: it throws InternalError
// "FILE:LINE: check `condition` failed: message", which the binary reports as an internal
// error (exit status 3). Inner loops of the rules and the search keep assert(), which Release
// builds compile out.

namespace morne {

[[noreturn]] void failCheck(const char* condition, const char* message, const char* file, int line);

}  // namespace morne

#define MORNE_CHECK(condition, message)                                            \
  do {                                                                             \
    if (!(condition)) ::morne::failCheck(#condition, message, __FILE__, __LINE__); \
  } while (false)
