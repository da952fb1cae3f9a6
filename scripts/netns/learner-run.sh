#!/usr/bin/env bash
# The data-parallel learner across the hosts of the test bed (scripts/netns/testbed.sh):
#
#   scripts/netns/learner-run.sh prepare MORNE RUN STEPS   a run folder whose generation 1 the
#                                                         learner can train at once (duel, a
#                                                         bootstrap of 64 games by rule)
#   scripts/netns/learner-run.sh train MORNE RUN RANKS     trains generation 1 from scratch with
#                                                         RANKS ranks, rank K on host K (rank 0
#                                                         keeps the store on 10.88.0.1), one
#                                                         LibTorch thread each; prints the
#                                                         samples/s between the first and last
#                                                         metrics rows
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

prepare() {
  local morne=$1 run=$2 steps=$3
  "$morne" loop init --out "$run" --scenario duel --generations 1 --bootstrap rule \
    --bootstrap-games 64 --steps "$steps" --max-reuse 0 --metrics-every 10 \
    --checkpoint-every 100000 --validation 0 --calibration-rows 0 --batch 256 > /dev/null
  "$morne" loop worker "$run" --worker bootstrap --max-games 64 --jobs 2 --quiet > /dev/null
}

train() {
  local morne=$1 run=$2 ranks=$3 port=$((29500 + RANDOM % 1000)) k
  rm -f "$run"/train/{learner.json,checkpoint.pt,net.pt,metrics.csv,gen-001.json}
  local pids=()
  for ((k = 0; k < ranks; ++k)); do
    local group=()
    [ "$ranks" -gt 1 ] && group=(--rank "$k" --ranks "$ranks" --group "tcp://10.88.0.1:$port"
                                 --interface "eth-h$k" --group-timeout 120)
    "$here/testbed.sh" exec "$k" "$morne" loop train "$run" --threads 1 --quiet "${group[@]}" \
      > "$run/learner-$k.txt" 2>&1 &
    pids+=($!)
  done
  local failed=0
  for k in "${!pids[@]}"; do
    wait "${pids[$k]}" || { echo "rank $k failed:" >&2; tail -5 "$run/learner-$k.txt" >&2; failed=1; }
  done
  [ $failed -eq 0 ] || return 1
  # metrics.csv: step, samples, seconds, ...
  awk -F, 'NR == 2 { s0 = $2; t0 = $3 } NR > 2 { s = $2; t = $3 }
           END { if (t > t0) printf "%.0f\n", (s - s0) / (t - t0); else exit 1 }' \
    "$run/train/metrics.csv"
}

case "${1:-}" in
  prepare) [ $# -eq 4 ] || { echo "usage: $0 prepare MORNE RUN STEPS" >&2; exit 2; }; prepare "$2" "$3" "$4" ;;
  train) [ $# -eq 4 ] || { echo "usage: $0 train MORNE RUN RANKS" >&2; exit 2; }; train "$2" "$3" "$4" ;;
  *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
