#!/usr/bin/env bash
# The multi-host test bed (scripts/netns/testbed.sh): two "hosts" in network namespaces, their
# links shaped to 1 Gbit/s, and the data-parallel learner with one rank on each, meeting over
# the test bed's addresses only (a TCP store on host 0, Gloo pairs between the hosts), trains
# a generation. Skipped (exit 77) with the reason where namespaces cannot be made (not root,
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
