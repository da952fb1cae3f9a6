#!/usr/bin/env bash
# The data-parallel learner's samples/s with 1, 2 and 4 ranks, one per host of the test bed
# (scripts/netns/testbed.sh), under each link profile, with the time and bytes of the ranks'
# exchanges per step (docs/scale-out.md, "Across hosts"). Rounds are interleaved: every
# configuration is measured once a round, so that the machine's drift spreads evenly.
#
#   sudo scripts/netns/measure.sh MORNE [ROUNDS] [STEPS] [PROFILES...]
#
# Defaults: 2 rounds, 120 steps of batch 256 on duel, profiles none 10gbit 1gbit 100mbit
# 10mbit. Prints one line per measurement and a table of medians.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
morne=$(realpath "$1")
rounds=${2:-2}
steps=${3:-120}
shift $(($# < 3 ? $# : 3))
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(none 10gbit 1gbit 100mbit 10mbit)
dir=$(mktemp -d)
trap '"$here/testbed.sh" down > /dev/null; rm -rf "$dir"' EXIT

"$here/learner-run.sh" prepare "$morne" "$dir/run" "$steps"
results="$dir/results.txt"
for ((round = 1; round <= rounds; ++round)); do
  for profile in "${profiles[@]}"; do
    "$here/testbed.sh" up 4 "$profile" > /dev/null
    for ranks in 1 2 4; do
      rate=$("$here/learner-run.sh" train "$morne" "$dir/run" "$ranks")
      # One rank exchanges nothing: its gen-001.json has no exchange figures.
      ms=$(grep -o '"exchange_ms_per_step": [0-9.]*' "$dir/run/train/gen-001.json" |
           awk '{print $2}' || true)
      sent=$(grep -o '"exchange_bytes_sent_per_rank_step": [0-9.]*' "$dir/run/train/gen-001.json" |
             awk '{print $2}' || true)
      echo "$profile $ranks $rate ${ms:-0} ${sent:-0}" | tee -a "$results"
    done
  done
done

echo
printf '%-10s %5s %12s %12s %18s %16s\n' profile ranks samples/s "/ 1 rank" "exchange ms/step" "kB sent/rank/step"
for profile in "${profiles[@]}"; do
  base=$(awk -v p="$profile" '$1 == p && $2 == 1 {print $3}' "$results" | sort -n |
         awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
  for ranks in 1 2 4; do
    awk -v p="$profile" -v r="$ranks" -v base="$base" '$1 == p && $2 == r' "$results" |
      sort -k3 -n | awk -v p="$profile" -v r="$ranks" -v base="$base" '
        {rate[NR] = $3; ms[NR] = $4; sent = $5}
        END {
          m = (NR % 2) ? rate[(NR + 1) / 2] : (rate[NR / 2] + rate[NR / 2 + 1]) / 2
          x = (NR % 2) ? ms[(NR + 1) / 2] : (ms[NR / 2] + ms[NR / 2 + 1]) / 2
          printf "%-10s %5d %12.0f %12.2f %18.1f %16.0f\n", p, r, m, m / base, x, sent / 1000
        }'
  done
done
