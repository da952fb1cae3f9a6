#pragma once
// What every fuzz target shares. A target is `LLVMFuzzerTestOneInput`: built with clang's
// libFuzzer (MORNE_LIBFUZZER) it is fuzzed, built with any compiler and fuzz_main.cpp it replays
// its corpus (tests/fuzz/corpus/TARGET) as an ordinary test. Bad input must get morne's own
// errors (morne::Error); any other exception, a crash, a sanitizer report or a broken
// invariant (fuzzRequire) is a finding.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace morne::fuzz {

// Stops with a message when an invariant does not hold.
inline void fuzzRequire(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

inline std::string_view text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace morne::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
