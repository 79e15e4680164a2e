#!/usr/bin/env bash
# Opt-in end-to-end test of `ptxfu sweep --emit-slurm` on a real Slurm: starts
# a one-node cluster on localhost (munged, slurmctld, slurmd, all as root, all
# state in a temporary directory, nothing in /etc touched), submits the
# sweep's job array and the dependent merge job with sbatch, waits, and
# compares the merged rows with a single-process run of the same spec.
#
#   sudo ./scripts/test-slurm.sh [SPEC]      (default: configs/sweeps/fma_latency_warps.yaml)
#
# Needs root (slurmd runs jobs as their user and must be root to do so) and
# Debian's slurm-wlm and munge, installed here when missing. Exit 0: the
# merged Slurm result equals the local one. ctest runs it as
# ptxfu_sweep_slurm_test with a small spec (tb/sweep/slurm_small.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
PTXFU=$(realpath "${PTXFU:-build/ptxfu}")
SPEC=$(realpath "${1:-configs/sweeps/fma_latency_warps.yaml}")
SHARDS=${SHARDS:-3}
PORT=${SLURM_TEST_PORT:-$((20000 + $$ % 20000))}   # slurmctld; slurmd uses PORT+1
# Under ctest (PTXFU_SLURM_SKIP=77): skip, with that status, where it cannot run.
skip=${PTXFU_SLURM_SKIP:-2}

if [ "$(id -u)" -ne 0 ]; then
  echo "test-slurm: skipped: run as root (slurmd must be root to start jobs)" >&2
  exit "$skip"
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  if [ "$skip" = 77 ]; then
    echo "test-slurm: skipped: slurm-wlm and munge are not installed (scripts/install-deps.sh installs them)" >&2
    exit 77
  fi
  echo "test-slurm: installing slurm-wlm and munge" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi
[ -x "$PTXFU" ] || { echo "test-slurm: $PTXFU not built (cmake --build build --target ptxfu)" >&2; exit 2; }

T=$(mktemp -d /tmp/ptxfu-slurm.XXXXXX)
chmod 755 "$T"
export SLURM_CONF=$T/slurm.conf
cleanup() {
  for p in slurmd slurmctld munged; do
    [ -f "$T/$p.pid" ] && kill "$(cat "$T/$p.pid")" 2>/dev/null || true
  done
  sleep 1
  if [ "${KEEP:-0}" = 1 ] || [ "${failed:-1}" = 1 ]; then
    echo "test-slurm: logs and results kept in $T" >&2
  else
    rm -rf "$T"
  fi
}
trap cleanup EXIT

# munge: a fresh key and a private socket.
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge.key"
munged --force --socket="$T/munge.sock" --key-file="$T/munge.key" --pid-file="$T/munged.pid" \
  --log-file="$T/munged.log" --seed-file="$T/munged.seed"

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$T/state" "$T/spool"
cat >"$SLURM_CONF" <<EOF
ClusterName=ptxfu-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 1
done
if [ "$state" != idle ]; then
  echo "test-slurm: the node did not come up (state '$state')" >&2
  tail -n 20 "$T/slurmctld.log" "$T/slurmd.log" >&2 || true
  exit 1
fi
echo "test-slurm: one-node cluster up ($host, $cpus CPUs)"

# The sweep as a job array, the merge as a job that waits for it.
"$PTXFU" sweep "$SPEC" --emit-slurm --shards "$SHARDS" --jobs 1 --out "$T/sweep"
job=$(sbatch --parsable "$T/sweep/sweep.sbatch")
job=${job%%;*}
merge=$(sbatch --parsable --dependency=afterany:"$job" "$T/sweep/merge.sbatch")
merge=${merge%%;*}
echo "test-slurm: submitted array $job ($SHARDS tasks) and merge $merge"
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$job,$merge" 2>/dev/null)" ] && break
  sleep 1
done
if [ -n "$(squeue -h -j "$job,$merge" 2>/dev/null)" ]; then
  echo "test-slurm: jobs still queued after 10 minutes" >&2
  squeue >&2
  exit 1
fi
cat "$T"/sweep/slurm-merge-*.out

# The same spec in one process, then the rows compared (order aside).
"$PTXFU" sweep "$SPEC" --out "$T/local" --quiet --no-plots >/dev/null
if diff <(tail -n +2 "$T/local/results.csv" | sort) <(tail -n +2 "$T/sweep/merged/results.csv" | sort) >/dev/null &&
   [ "$(head -1 "$T/local/results.csv")" = "$(head -1 "$T/sweep/merged/results.csv")" ]; then
  echo "test-slurm: ok: $(($(wc -l <"$T/local/results.csv") - 1)) rows from $SHARDS Slurm array tasks equal the single-process run"
  failed=0
else
  echo "test-slurm: FAILED: merged Slurm rows differ from the single-process run" >&2
  diff <(tail -n +2 "$T/local/results.csv" | sort) <(tail -n +2 "$T/sweep/merged/results.csv" | sort) >&2 || true
  exit 1
fi
