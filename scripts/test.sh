#!/usr/bin/env bash
# Runs the whole test suite: installs and builds first when needed (scripts/setup.sh), runs
# every test of the Release build, then builds build-asan/ (Debug with AddressSanitizer and
# UndefinedBehaviorSanitizer, asserts on) and runs every test again there. Exits non-zero when
# any test fails.
#
#   scripts/test.sh           both passes (what CI runs)
#   scripts/test.sh --fast    the Release pass only
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"

[ "${1:-}" = "--fast" ] && exit 0
if [ ! -f build-asan/build.ninja ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DMORNE_SANITIZE="address;undefined"
fi
cmake --build build-asan -j"$(nproc)"
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
