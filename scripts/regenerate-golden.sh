#!/usr/bin/env bash
# Rewrites the golden files (perft counts, playthroughs) from the current engine. Run it only
# after an intended rule change, then review `git diff tests/golden/` and say in the commit why
# the counts and games moved.
set -euo pipefail
cd "$(dirname "$0")/.."
morne=build/morne
[ -x "$morne" ] || scripts/setup.sh

count() {  # scenario state depth
  local state_arg=()
  [ "$2" != "-" ] && state_arg=(--state "tests/golden/$2")
  "$morne" perft --scenario "$1" --depth "$3" "${state_arg[@]}" | tail -1 | awk '{print $3}'
}

{
  echo "# Perft golden counts: scenario, start state ('-' = the scenario's start, else a file in"
  echo "# tests/golden/), depth, number of ply sequences (chance outcomes are branches)."
  echo "# Regenerate after an intended rule change with scripts/regenerate-golden.sh and review the diff."
  for d in 1 2 3 4 5; do echo "duel - $d $(count duel - "$d")"; done
  for d in 1 2 3 4 5; do echo "duel duel_contact.json $d $(count duel duel_contact.json "$d")"; done
  for d in 1 2 3 4 5; do echo "duel duel_bombardment.json $d $(count duel duel_bombardment.json "$d")"; done
  for d in 1 2 3; do echo "crossing - $d $(count crossing - "$d")"; done
  for d in 1 2 3 4 5; do echo "crossing crossing_battle.json $d $(count crossing crossing_battle.json "$d")"; done
  for d in 1 2 3; do echo "pyramids - $d $(count pyramids - "$d")"; done
} > tests/golden/perft.txt
echo "rewrote tests/golden/perft.txt"

# Golden playthroughs: one seeded game per scenario (seeds chosen for variety of events; keep
# them in step with tests/agents/playthrough_test.cpp).
for pair in duel:8 crossing:10 pyramids:13; do
  scenario=${pair%%:*}
  seed=${pair##*:}
  "$morne" play --scenario "$scenario" --blue random --orange random --seed "$seed" --transcript > "tests/golden/playthrough_$scenario.txt"
  echo "rewrote tests/golden/playthrough_$scenario.txt"
done
