#!/usr/bin/env bash
# The multi-host test bed (scripts/netns/testbed.sh): two "hosts" in network namespaces, their
# links shaped to 1 Gbit/s, and the data-parallel learner with one rank on each, meeting over
# the test bed's addresses only (a TCP store on host 0, Gloo pairs between the hosts), trains
# a generation; then a run whose learner, gate and `morne loop serve` are on host 0 is played by a
# remote worker on host 1 over HTTP, in a folder of its own. Skipped (exit 77) with the reason where namespaces cannot be made (not root,
# a container without CAP_NET_ADMIN).
set -euo pipefail
morne=$(realpath "$1")
scripts=$(cd "$(dirname "$0")/../../scripts/netns" && pwd)
if ! reason=$("$scripts/testbed.sh" check); then echo "$reason"; exit 77; fi
dir=$(mktemp -d)
trap '"$scripts/testbed.sh" down; rm -rf "$dir"' EXIT

"$scripts/testbed.sh" up 2 1gbit
"$scripts/learner-run.sh" prepare "$morne" "$dir/run" 20
rate=$("$scripts/learner-run.sh" train "$morne" "$dir/run" 2)
grep -q "rank 1 of 2 joining tcp://10.88.0.1:" "$dir/run/learner-1.txt"
test -f "$dir/run/train/gen-001.json"
test -f "$dir/run/nets/candidate-gen-001.pt"
grep -q '"exchange_ms_per_step"' "$dir/run/train/gen-001.json"
grep "exchanges between 2 ranks" "$dir/run/learner-0.txt"
echo "netns: 2 ranks on 2 hosts over 1 Gbit/s links trained generation 1 at $rate samples/s"

# Without the shared folder: host 0 holds the run and serves it; host 1's worker has only HTTP.
run="$dir/remote-run"
"$morne" loop init --out "$run" --scenario duel --generations 2 --bootstrap mcts:sims=20 \
  --bootstrap-games 8 --games 4 --chunk-games 4 --agent az:sims=8,gumbel=1 \
  --gate-agent az:sims=4 --gate-rounds 1 --ladder-every 0 --ladder-rounds 1 \
  --ladder-agent az:sims=4 --ladder-references "rule random" --blocks 1 --channels 8 \
  --value-hidden 8 --batch 32 --steps 10 --validation-rows 16 > /dev/null
"$scripts/testbed.sh" exec 0 "$morne" loop serve "$run" --host 10.88.0.1 --port 8090 \
  > "$dir/serve.txt" 2>&1 &
serve=$!
"$scripts/testbed.sh" exec 0 "$morne" loop train "$run" --quiet > "$dir/train.txt" 2>&1 &
train=$!
"$scripts/testbed.sh" exec 0 "$morne" loop gate "$run" --quiet > "$dir/gate.txt" 2>&1 &
gate=$!
for i in $(seq 100); do [ -s "$run/token" ] && break; sleep 0.1; done
cp "$run/token" "$dir/token"  # the worker's copy, as a user would carry it to its machine
timeout 600 "$scripts/testbed.sh" exec 1 "$morne" loop worker "$dir/worker" --worker far \
  --remote http://10.88.0.1:8090 --token-file "$dir/token" --jobs 2 --quiet > "$dir/worker.txt" 2>&1
wait "$train" "$gate"
kill -INT "$serve"; wait "$serve"
grep -q '"data_set": 2' "$run/latest.json"
grep -q "fetching nets/gen-001.pt" "$dir/worker.txt"
ls "$run"/selfplay/gen-001/far-*.h5 > /dev/null
if ls "$dir"/worker/selfplay/gen-00*/*.h5 2> /dev/null; then echo "unsent shards left"; exit 1; fi
grep "uploads stored" "$dir/serve.txt"
echo "netns: a remote worker on host 1 played the 2 generations of a run served from host 0"
