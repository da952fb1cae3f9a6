#!/usr/bin/env bash
# The learning ablation of docs/learning-duel.md ("Ablations at equal CPU-hours"): runs of
# configs/loop-duel.cfg that differ in one setting each, every one stopped by the same
# --max-cpu-hours, then their final best networks rated together.
#
#   scripts/ablation-duel.sh [BUDGET] [OUT]     BUDGET CPU-hours a run (0.4), OUT folder (ablation)
#
# The arms share data set 0: the baseline plays it (2,000 games of mcts:sims=200, the same for
# every arm: same seed, same bootstrap settings), each other arm starts from a copy of it and of
# the worker's totals, so its CPU-hours count the bootstrap as if it had played it. The runs go
# on at once under `nice`; stopped (Ctrl-C, or a lost machine), the script started again
# resumes them. Then:
#   raw.txt      the raw policies (az:sims=1) of every arm and `rule` in one duplicate round
#                robin (RAW_ROUNDS a pair, 50), rated relative to the baseline's;
#   search.txt   each arm's az:sims=100 against mcts:sims=800 (SEARCH_ROUNDS, 100), all rated
#                in one Elo fit, relative to mcts.
# ABLATION_SET="--set key=value ..." adds settings to every arm (a quick try: small runs);
# ARMS="baseline combined" runs only the arms named (the baseline always plays data set 0).
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-0.4}
out=${2:-ablation}
morne=${MORNE:-build/morne}
raw_rounds=${RAW_ROUNDS:-50}
search_rounds=${SEARCH_ROUNDS:-100}

# The settings every arm starts from: those of the first learning run, before this ablation
# chose the defaults of configs/loop-duel.cfg (the combined arm's), so the arms stay the same.
# (resign-bound=1: never suspend resignation, as before the bound existed.)
baseline=(gate=score gate-rounds=20 average-snapshots=1 q-ratio=0 margin-weight=0
  control-weight=0 short-value-weight=0 max-reuse=4 resign-bound=1)
# Each arm: its name and the settings it changes.
arms=(
  "baseline|"
  "sprt|gate=sprt gate-rounds=100"
  "no-gate-average|gate=none average-snapshots=4"
  "q-ratio|q-ratio=0.5"
  "margin|margin-weight=1"
  "control|control-weight=1"
  "short-value|short-value-weight=1"
  "reuse-8|max-reuse=8"
  "combined|gate=none average-snapshots=4 q-ratio=0.5 margin-weight=1 short-value-weight=1"
  "targets|q-ratio=0.5 margin-weight=1 short-value-weight=1"
  "archive|gate=none average-snapshots=4 start-share=0.25"
)
# An arm's settings as --set options: the baseline's, with the arm's in their place.
armSettings() {
  local -A value=()
  local order=() kv key
  for kv in "${baseline[@]}" $1; do
    key=${kv%%=*}
    [ -n "${value[$key]+x}" ] || order+=("$key")
    value[$key]=${kv#*=}
  done
  for key in "${order[@]}"; do printf -- '--set\n%s=%s\n' "$key" "${value[$key]}"; done
}
if [ -n "${ARMS:-}" ]; then
  chosen=()
  for arm in "${arms[@]}"; do
    case " baseline $ARMS " in *" ${arm%%|*} "*) chosen+=("$arm") ;; esac
  done
  arms=("${chosen[@]}")
fi
read -r -a extra <<<"${ABLATION_SET:-}"
common=(--config configs/loop-duel.cfg --generations 999 --ladder-every 0 --quiet "${extra[@]}")

mkdir -p "$out"
for arm in "${arms[@]}"; do
  name=${arm%%|*}
  mapfile -t settings < <(armSettings "${arm#*|}")
  [ -f "$out/$name/loop.json" ] ||
    "$morne" loop init "${common[@]}" "${settings[@]}" --out "$out/$name" >/dev/null
done

# Data set 0, played once: the baseline's first generation.
if [ ! -f "$out/baseline/gates/gen-001.json" ]; then
  echo "ablation: the baseline plays data set 0 (shared by every arm)"
  nice -n 19 "$morne" loop --resume "$out/baseline" --max-cpu-hours 0.0001 --quiet \
    >>"$out/baseline.log"
fi
# Its worker's totals (CPU time) as they were after data set 0, kept for arms added later.
totals0="$out/data-set-0-worker.json"
if [ ! -f "$totals0" ]; then
  if ! grep -q '"data_set": 0,' "$out/baseline/workers/loop.json"; then
    echo "ablation: $out/baseline has played past data set 0 and $totals0 is missing:" \
      "a new arm's CPU-hours cannot be counted; start the arms in a new OUT" >&2
    exit 1
  fi
  cp "$out/baseline/workers/loop.json" "$totals0"
fi
for arm in "${arms[@]:1}"; do
  name=${arm%%|*}
  if [ ! -d "$out/$name/selfplay/gen-000" ]; then
    cp -r "$out/baseline/selfplay/gen-000" "$out/$name/selfplay/"
    cp "$totals0" "$out/$name/workers/loop.json"
  fi
done

echo "ablation: ${#arms[@]} runs of $budget CPU-hours each, at once (logs: $out/ARM.log)"
pids=()
for arm in "${arms[@]}"; do
  name=${arm%%|*}
  nice -n 19 "$morne" loop --resume "$out/$name" --max-cpu-hours "$budget" --quiet \
    >>"$out/$name.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

echo "ablation: rating the final best networks"
agents=""
for arm in "${arms[@]}"; do
  name=${arm%%|*}
  best=$(sed -n 's/.*"network": "\(.*\)".*/\1/p' "$out/$name/latest.json")
  cp "$out/$name/$best" "$out/final-$name.pt"
  agents+="az:sims=1,model=$out/final-$name.pt "
done
agents+="rule"
"$morne" arena --agents "$agents" --scenarios duel --rounds "$raw_rounds" --seed 1001 --jobs 2 \
  --out "$out/raw" --force --quiet >"$out/raw.txt"
for arm in "${arms[@]}"; do
  name=${arm%%|*}
  "$morne" arena --agents "az:sims=100,model=$out/final-$name.pt mcts:sims=800" --scenarios duel \
    --rounds "$search_rounds" --seed 2002 --jobs 2 --out "$out/search-$name" --force --quiet \
    >"$out/search-$name.txt"
done
"$morne" arena rate --force --out "$out/search" "$out"/search-*/games.csv >"$out/search.txt"
for arm in "${arms[@]}"; do
  name=${arm%%|*}
  sed -n 's/.*"cpu_hours": \([0-9.]*\).*/\1/p' "$out/$name/summary.json" | head -1 |
    xargs printf "%s: %s CPU-hours\n" "$name"
done
cat "$out/raw.txt" "$out/search.txt"
