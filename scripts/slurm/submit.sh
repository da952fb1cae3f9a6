#!/usr/bin/env bash
# Starts a morne learning run on a Slurm cluster (docs/scale-out.md): makes the run folder
# from a config when it is new, then submits the learner job (with the gate) and an array of
# self-play workers.
#
#   scripts/slurm/submit.sh CONFIG RUN WORKERS [RANKS]
#
# CONFIG: a loop config (configs/loop-duel.cfg); RUN: the run folder, on a filesystem every
# node shares; WORKERS: array tasks of self-play; RANKS: processes of the learner (default 1).
# Extra sbatch options go in $MORNE_SBATCH (for example "--partition=cpu --time=2-0").
# An existing RUN is resumed with its own settings (CONFIG is then not read).
set -euo pipefail
cd "$(dirname "$0")/../.."

config=${1:?usage: scripts/slurm/submit.sh CONFIG RUN WORKERS [RANKS]}
run=${2:?usage: scripts/slurm/submit.sh CONFIG RUN WORKERS [RANKS]}
workers=${3:?usage: scripts/slurm/submit.sh CONFIG RUN WORKERS [RANKS]}
ranks=${4:-1}
export MORNE=${MORNE:-$PWD/build/morne}
run=$(realpath -m "$run")

if [ ! -f "$run/loop.json" ]; then
  "$MORNE" loop init --config "$config" --out "$run"
fi
# shellcheck disable=SC2086  # $MORNE_SBATCH holds several options
learner=$(sbatch --parsable ${MORNE_SBATCH:-} --ntasks="$ranks" --chdir="$run" \
  scripts/slurm/learner.sbatch "$run")
# shellcheck disable=SC2086
array=$(sbatch --parsable ${MORNE_SBATCH:-} --array="0-$((workers - 1))" --chdir="$run" \
  scripts/slurm/workers.sbatch "$run")
cat <<TEXT
run:      $run
learner:  job $learner ($ranks rank(s), with the gate)
workers:  job $array (array 0-$((workers - 1)))
status:   $MORNE loop status $run
grow:     sbatch --array=$workers-$((2 * workers - 1)) --chdir=$run scripts/slurm/workers.sbatch $run
shrink:   scancel ${array}_[K-$((workers - 1))]
stop:     scancel $learner $array   (resume: this command again)
TEXT
