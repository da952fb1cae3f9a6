#!/usr/bin/env bash
# Fuzzes morne's input parsers with clang's libFuzzer (tests/fuzz/): builds build-fuzz/ (clang-14,
# AddressSanitizer, UndefinedBehaviorSanitizer, libFuzzer; MORNE_FUZZ_BUILD names another such
# folder, as scripts/test.sh does with its sanitizer build), then runs each target for a bounded
# time, two at a time, from its seed corpus in tests/fuzz/corpus/ (new inputs go to a scratch
# folder of the build, never into the repository). Prints executions and coverage per
# target; exits non-zero on any finding (the crashing input is kept in the build folder's findings/).
#
#   scripts/fuzz.sh                     every target, 30 s each
#   scripts/fuzz.sh 300 protocol state  those targets, 300 s each
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(protocol scenario state action_text config journal shard shard_bytes http_head)

if ! command -v clang++-14 >/dev/null; then
  echo "fuzz: clang++-14 not found (Debian: clang-14 libclang-rt-14-dev); skipped"
  exit 0
fi
build=${MORNE_FUZZ_BUILD:-build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
  # -O1 with line tables: the findings' stacks need file and line, and it compiles faster
  # than RelWithDebInfo's -O2 -g.
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DMORNE_LIBFUZZER=ON -DMORNE_WERROR=OFF -DMORNE_PYTHON=OFF \
    -DMORNE_TORCH_LIBRARY=OFF "-DMORNE_SANITIZE=address;undefined;fuzzer-no-link" >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

mkdir -p "$build/findings" "$build/logs"
export build
fuzz_one() {
  local t=$1 seconds=$2
  local scratch=$build/corpus-work/$t
  mkdir -p "$scratch"
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    "$build/tests/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$t-" \
    "$scratch" "tests/fuzz/corpus/$t" >"$build/logs/$t.log" 2>&1
}
export -f fuzz_one
status=0
printf '%s\n' "${targets[@]}" | xargs -P 2 -I{} bash -c "fuzz_one {} $seconds" || status=1

printf '%-12s %12s %10s %8s  %s\n' target executions exec/s cov result
for t in "${targets[@]}"; do
  log=$build/logs/$t.log
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: [0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
  if grep -qE 'ERROR: |fuzz finding|deadly signal|Test unit written' "$log"; then
    result="FINDING (see $log)"
    status=1
  else
    result=ok
  fi
  printf '%-12s %12s %10s %8s  %s\n' "$t" "$runs" "$rate" "$cov" "$result"
done
exit $status
