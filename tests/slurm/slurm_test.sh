#!/usr/bin/env bash
# The Slurm scripts of scripts/slurm/ on a real one-node cluster: munged, slurmctld and slurmd
# from Debian's munge and slurm-wlm, started on this machine with a configuration of their own
# (ports, state and key in a fresh folder, the current user as Slurm's user). A tiny run is
# submitted with scripts/slurm/submit.sh (2 self-play workers in an array, a learner of 2
# ranks with the gate), and the test checks that shards and networks flow: every generation
# gated, shards written by the array's workers, the data-parallel learner's 2 ranks.
#
#   tests/slurm/slurm_test.sh MORNE_BINARY
#
# Exits 77 (skipped, with the reason) when the daemons are not installed or cannot start.
set -uo pipefail
morne=$(realpath "${1:?usage: slurm_test.sh MORNE_BINARY}")
source_dir=$(cd "$(dirname "$0")/../.." && pwd)

skip() { echo "SKIPPED: $*"; exit 77; }
for tool in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (Debian: munge slurm-wlm)"
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/morne-slurm-XXXXXX")
user=$(id -un)
port=$((20000 + $$ % 20000))
export SLURM_CONF=$dir/slurm.conf
cleanup() {
  scontrol shutdown >/dev/null 2>&1 || true
  [ -f "$dir/munged.pid" ] && kill "$(cat "$dir/munged.pid")" 2>/dev/null
  sleep 1
  rm -rf "$dir"
}
trap cleanup EXIT
show_logs() {
  for f in "$dir"/log/*.log "$dir"/run/log.txt "$dir"/run/*.out; do
    [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }
  done
}
fail() { echo "FAILED: $*"; show_logs; exit 1; }

mkdir -p "$dir/state" "$dir/spool" "$dir/log"
head -c 1024 /dev/urandom > "$dir/munge.key" && chmod 600 "$dir/munge.key"
munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge.seed" \
  || skip "munged cannot start here"
cat > "$SLURM_CONF" <<CONF
ClusterName=mornetest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SchedulerParameters=sched_interval=1
NodeName=localhost NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
CONF
slurmctld -i >/dev/null 2>&1 || skip "slurmctld cannot start here"
slurmd -N localhost >/dev/null 2>&1 || skip "slurmd cannot start here"
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %T 2>/dev/null | grep -q idle || { show_logs; skip "the one-node cluster did not come up"; }
echo "one-node Slurm cluster up (ports $port-$((port + 1)))"

# A tiny run: 2 generations of a small network.
cat > "$dir/tiny.cfg" <<CFG
scenario = duel
generations = 2
bootstrap = mcts:sims=20
bootstrap-games = 40
games = 16
agent = az:sims=8,gumbel=1
chunk-games = 8
jobs = 1
gate-agent = az:sims=4
gate-rounds = 2
ladder-rounds = 1
ladder-agent = az:sims=4
ladder-references = rule random
blocks = 1
channels = 8
value-hidden = 8
batch = 32
steps = 50
metrics-every = 25
validation-rows = 64
CFG
export MORNE=$morne MORNE_SBATCH="--cpus-per-task=1" MORNE_GROUP_PORT=$((port + 2))
(cd "$source_dir" && scripts/slurm/submit.sh "$dir/tiny.cfg" "$dir/run" 2 2) > "$dir/submit.txt" 2>&1 \
  || { cat "$dir/submit.txt"; fail "submit.sh failed"; }
cat "$dir/submit.txt"
learner=$(sed -n 's/^learner:  job \([0-9]*\).*/\1/p' "$dir/submit.txt")
for _ in $(seq 600); do
  [ -z "$(squeue -h 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h)" ] || fail "jobs still running after 300 s: $(squeue -h)"

grep -q '"data_set": 2' "$dir/run/latest.json" || fail "the run did not reach generation 2"
[ -f "$dir/run/train/gen-002.json" ] || fail "no training of generation 2"
ls "$dir"/run/selfplay/gen-000/slurm-0-*.h5 >/dev/null 2>&1 || fail "no shard of worker slurm-0"
ls "$dir"/run/selfplay/gen-00?/slurm-1-*.h5 >/dev/null 2>&1 || fail "no shard of worker slurm-1"
grep -q ", 2 ranks" "$dir/run/log.txt" || fail "the learner did not train with 2 ranks"
grep -q "gate: the run's last generation is gated; done" "$dir/run/log.txt" || fail "no gate"
"$morne" loop status "$dir/run"
echo "Slurm: learner job $learner with 2 ranks and 2 array workers ran the run to its end"
