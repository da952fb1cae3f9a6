#!/usr/bin/env bash
# Runs the whole test suite (docs/reliability.md says what each pass guards against):
#   1. the Release build (scripts/setup.sh installs and builds first when needed): a
#      clang-format check of every source, then every test, the fault tests (full disk,
#      kill -9, signals) and the fuzz corpora included;
#   2. build-asan/: clang with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's
#      coverage, the tests again but for the end-to-end runs of the binary (listed below);
#   3. build-tsan/: ThreadSanitizer over the search, arena, self-play and engine-session tests, with parallel work
#      on std::thread (MORNE_STD_THREADS) instead of Debian's uninstrumented TBB;
#   4. scripts/fuzz.sh: each fuzz target of build-asan/ under libFuzzer for MORNE_FUZZ_SECONDS
#      (default 30) seconds.
# Exits non-zero when any test fails or any sanitizer or fuzzer reports.
#
#   scripts/test.sh           every pass (what CI runs)
#   scripts/test.sh --fast    the Release pass only
set -euo pipefail
cd "$(dirname "$0")/.."
# Each pass says when it starts, and how long the run has taken so far; at the end, the
# duration of each (docs/reliability.md keeps the figures of a cold run).
durations=()
phase_name=""
phase_start=0
phase() {
  [ -n "$phase_name" ] && durations+=("$(printf '%6d s  %s' $((SECONDS - phase_start)) "$phase_name")")
  phase_name=$1
  phase_start=$SECONDS
  echo "== scripts/test.sh: $1 (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"
}
finish() {
  phase "done"
  echo "== scripts/test.sh: the passes' durations"
  printf '%s\n' "${durations[@]}"
}

# ccache keys paths relative to the checkout (as scripts/setup.sh does for the Release build).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true

phase "setup and the Release build"
scripts/setup.sh
# What the README promises after setup: the Python module imports in Debian's Python.
if [ -d build/python/morne ]; then /usr/bin/python3 -c "import morne"; fi
# The sources follow .clang-format (Google style, 100 columns): a difference fails the run.
git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format --dry-run -Werror
phase "the Release tests"
ctest --test-dir build --output-on-failure -j"$(nproc)"

[ "${1:-}" = "--fast" ] && { finish; exit 0; }
phase "the sanitizers' build"
# One build for AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer: clang-14 at -O1 with
# line tables (the reports' file and line), every library instrumented for the fuzzers' coverage
# too. The fuzz targets are libFuzzer binaries (their tests replay the corpora) that
# scripts/fuzz.sh then runs. libmorne_torch.so is the Release build's, found on
# LD_LIBRARY_PATH: clang cannot compile Debian's LibTorch headers, so the network's four sources
# (nn/torch/) run uninstrumented, as LibTorch itself does. It replaces a gcc -O0 build and a
# clang build for the fuzzers alone (docs/reliability.md, "CI's time").
if [ ! -f build-asan/build.ninja ]; then
  CC=clang-14 CXX=clang++-14 cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 \
    "-DMORNE_SANITIZE=address;undefined;fuzzer-no-link" \
    -DMORNE_LIBFUZZER=ON -DMORNE_WERROR=OFF -DMORNE_PYTHON=OFF -DMORNE_TORCH_LIBRARY=OFF
fi
# The suites of the libraries' code, in-process (labels unit, network, roles), the server over
# real sockets (server: the binary) and the fuzz corpora's replays (fuzz). The end-to-end runs
# of the binary (labels binary, train, fault, scale, slurm) and the browser test run in the
# Release pass only: they run the code of the suites here, and under the sanitizers those of
# labels binary, fault and train took 1,294 of the pass's 2,627 test-seconds on a fresh clone
# (docs/reliability.md, "CI's time").
asan_targets=(morne core_tests env_tests env_allocation_tests mcts_tests agents_tests
  arena_tests loop_tests roles_tests training_tests engine_tests session_tests nn_tests
  nn_encoding_tests fuzz_protocol fuzz_scenario fuzz_state fuzz_action_text fuzz_config
  fuzz_journal fuzz_shard fuzz_shard_bytes fuzz_http_head)
cmake --build build-asan -j"$(nproc)" --target "${asan_targets[@]}"
# Under the sanitizers every step is some five to ten times slower. A long repeat of code that
# shorter tests run under the sanitizers too is left to the Release pass: a walk of every
# scenario, a determinism check that runs a loop twice, and two statistical repeats (the last
# three took 151 of the pass's 959 test-seconds on a fresh clone; docs/reliability.md).
sanitizer_release_only='^(StepCounter\.RuleAndSearchAgentsNeverStepBackOnEveryScenario'
sanitizer_release_only+='|LoopRoles\.TheNetworksDoNotDependOnTheSelfPlayJobs'
sanitizer_release_only+='|TrainingDataTest\.StreamSamplesTheWindowUniformlyAndNeverValidationRows'
sanitizer_release_only+='|SelfPlayTest\.ABoostedSideSearchesMoreAndWinsMore)$'
phase "the tests under AddressSanitizer and UndefinedBehaviorSanitizer"
LD_LIBRARY_PATH="$PWD/build" UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)" \
  -L "unit|network|roles|server|fuzz" -E "$sanitizer_release_only"

phase "ThreadSanitizer"
tsan_tests=(mcts_tests agents_tests arena_tests training_tests session_tests)
# -O1 with line tables (-g1): what the race reports need (file and line), and a faster compile
# than RelWithDebInfo's -O2 -g.
if [ ! -f build-tsan/build.ninja ]; then
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DMORNE_SANITIZE=thread -DMORNE_STD_THREADS=ON \
    -DMORNE_PYTHON=OFF
fi
cmake --build build-tsan -j"$(nproc)" --target "${tsan_tests[@]}"
# Two tests repeat, for their statistics, the parallel work that others run under the race
# detector too (the training stream's reader thread; parallel self-play): 375 of training_tests'
# 941 s under ThreadSanitizer here (beside another run). Two more start no thread at all (a walk
# of every scenario; damaged shards read back): the slowest tests of agents_tests and
# training_tests in the Release pass. All four run in the other passes.
tsan_skipped='TrainingDataTest.StreamSamplesTheWindowUniformlyAndNeverValidationRows'
tsan_skipped+=':SelfPlayTest.ABoostedSideSearchesMoreAndWinsMore'
tsan_skipped+=':StepCounter.RuleAndSearchAgentsNeverStepBackOnEveryScenario'
tsan_skipped+=':ShardDamageTest.DamagedBytesAnywhereNeverCrashAReader'
export tsan_skipped
# The executables side by side, one per core (each alone used one core: 12.9 minutes here).
tsan_one() {
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "build-tsan/tests/$1" --gtest_brief=1 \
    --gtest_filter="-$tsan_skipped" >"build-tsan/$1.log" 2>&1
  local status=$?
  echo "ThreadSanitizer: $1 exit $status in $SECONDS s"
  [ $status -eq 0 ] || { cat "build-tsan/$1.log"; return 1; }
}
export -f tsan_one
printf '%s\n' "${tsan_tests[@]}" | xargs -P "$(nproc)" -I{} bash -c 'tsan_one {}'

phase "the fuzzers"
MORNE_FUZZ_BUILD=build-asan scripts/fuzz.sh "${MORNE_FUZZ_SECONDS:-30}"
finish
