#!/usr/bin/env bash
# The script `packlab sweep … --emit slurm` writes, run by a real Slurm: munged, slurmctld and
# slurmd on localhost (one node), started here with a config written to a temporary directory
# and stopped on exit. It checks that
#   - the merged files equal the one-machine sweep's, byte for byte, with an output directory
#     whose name holds a comma, a space and a quote, in arrays split at a MaxArraySize of 3
#     and throttled with --max-running, with --slurm-* resources passed through;
#   - a shard that fails makes the merge job fail with a message naming it, `merge` refuses
#     too, and `rerun` of that shard completes the sweep (SBATCH_TIMELIMIT reaching the jobs);
#   - a merge job that sbatch refuses gets the held arrays cancelled before they run;
#   - a reused output directory and a binary that is not there are refused before submitting.
# Needs root or password-less sudo (slurmd starts the jobs) and Debian's slurm-wlm and munge
# (scripts/setup installs them). Fails, never skips, when Slurm cannot start. About 15 s.
#
#   tests/slurm.sh [PACKLAB]   # default: target/debug/packlab, built first

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() {
  printf 'slurm test: FAILED: %s\n' "$*" >&2
  exit 1
}
say() { printf '    slurm test: %s\n' "$*"; }

if [[ -n "${1:-}" ]]; then
  PACKLAB=$(realpath -e "$1") || fail "$1: no such binary"
else
  cargo build --quiet -p packlab-cli --manifest-path "$ROOT/Cargo.toml"
  PACKLAB="$ROOT/target/debug/packlab"
fi
if [[ "$(id -u)" -ne 0 ]]; then
  # slurmd must be root to start jobs; without a password-less sudo there is no way to test.
  sudo -n true 2>/dev/null || fail "needs root (or password-less sudo) to start slurmd"
  exec sudo -n --preserve-env=PATH "$0" "$PACKLAB"
fi
for cmd in munged munge slurmctld slurmd sbatch scontrol scancel squeue sinfo python3; do
  command -v "$cmd" >/dev/null || fail "$cmd is missing: scripts/setup installs Debian's slurm-wlm and munge"
done

TMP=$(mktemp -d /tmp/packlab-slurm.XXXXXX)
chmod 755 "$TMP"
PIDS=()
cleanup() {
  local status=$?
  # Jobs still running (a check failed midway) are cancelled through our own controller only:
  # SLURM_CONF names it, and nothing runs when it was never written.
  if [[ -f "$TMP/slurm.conf" ]] && ((${#PIDS[@]} == 3)); then
    SLURM_CONF="$TMP/slurm.conf" scancel --quiet --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 25); do
      [[ -z "$(SLURM_CONF="$TMP/slurm.conf" squeue -h 2>/dev/null)" ]] && break
      sleep 0.2
    done
  fi
  # Stops only the daemons started here, by their pids, slurmd first.
  local i
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[i]}" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if ((status != 0)); then
    for log in "$TMP"/log/*.log; do
      [[ -f "$log" ]] && printf '\n--- %s (last lines)\n' "$log" && tail -n 15 "$log"
    done
    echo "slurm test: kept $TMP" >&2
  else
    rm -rf "$TMP"
  fi
}
trap cleanup EXIT

# Free TCP ports on localhost, so that another Slurm on this machine is no obstacle.
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

mkdir -p "$TMP"/{munge,state,spool,log,run}
NODE=$(uname -n | cut -d. -f1)

# munge: a fresh key, and a socket of our own (the system's munged, if any, is left alone).
head -c 1024 /dev/urandom >"$TMP/munge/munge.key"
chmod 700 "$TMP/munge"
chmod 400 "$TMP/munge/munge.key"
SOCKET="$TMP/munge/munge.socket"
munged --foreground --force --key-file="$TMP/munge/munge.key" --socket="$SOCKET" \
  --pid-file="$TMP/run/munged.pid" --log-file="$TMP/log/munged.log" --seed-file="$TMP/munge/seed" \
  >>"$TMP/log/munged.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [[ -S "$SOCKET" ]] && break; sleep 0.1; done
munge -n -S "$SOCKET" >/dev/null || fail "munged did not start (log: $TMP/log/munged.log)"

export SLURM_CONF="$TMP/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=packlab-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/run/slurmctld.pid
SlurmdPidFile=$TMP/run/slurmd.pid
SlurmctldLogFile=$TMP/log/slurmctld.log
SlurmdLogFile=$TMP/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
# A scheduling pass every second rather than every minute: a dependency is seen at once.
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MaxArraySize=3
MinJobAge=600
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=lab Nodes=$NODE Default=YES MaxTime=60 State=UP
EOF

slurmctld -D -i -f "$SLURM_CONF" >>"$TMP/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$NODE" >>"$TMP/log/slurmd.out" 2>&1 &
PIDS+=($!)
up=""
for _ in $(seq 100); do
  if [[ "$(sinfo -h -n "$NODE" -o %t 2>/dev/null)" == idle ]]; then
    up=yes
    break
  fi
  sleep 0.2
done
[[ -n "$up" ]] || fail "Slurm did not start: node $NODE not idle after 20 s ($(sinfo -h -o '%n %t' 2>&1))"
say "Slurm $(scontrol version | cut -d' ' -f2) up on $NODE, ports $CTLD_PORT and $SLURMD_PORT"

# The states of jobs $1 (ids, spaced; an array: its tasks' states), sorted and deduplicated.
state() { for j in $1; do scontrol show job -o "$j"; done | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort -u | tr '\n' ' ' | sed 's/ $//'; }
# Waits up to 60 s for job $1 to end; prints its state.
wait_job() {
  local s
  for _ in $(seq 300); do
    s=$(state "$1")
    case "$s" in *PENDING* | *RUNNING* | *CONFIGURING* | *COMPLETING*) sleep 0.2 ;; *) echo "$s" && return ;; esac
  done
  fail "job $1 still $s after 60 s"
}
# The value of line "$2: …" of the submit output $1.
field() { sed -n "s/^$2: //p" <<<"$1"; }

SWEEP=(sweep --preset msfq-d2 --horizon 2000 --load "0.5,0.7" --reps 2)
"$PACKLAB" "${SWEEP[@]}" --out "$TMP/whole" >/dev/null
same_files() {
  local f
  for f in msfq-d2-runs.csv msfq-d2-summary.csv msfq-d2.svg; do
    cmp -s "$TMP/whole/$f" "$1/$f" || fail "$1/$f differs from the one-machine sweep's"
  done
}

# 1. A sweep with a hard output path, split into arrays, throttled, resources passed through.
OUT="$TMP/data/a,b c'd/out"
"$PACKLAB" "${SWEEP[@]}" --emit slurm --shards 7 --max-running 2 --slurm-time 5 --slurm-mem 100M \
  --slurm-partition lab --out "$OUT" >"$TMP/good.sh"
said=$(cd "$TMP" && bash good.sh) || fail "the emitted script did not submit"
arrays=$(field "$said" arrays) merge=$(field "$said" merge)
(($(wc -w <<<"$arrays") == 4)) || fail "7 shards at MaxArraySize 3 make 4 arrays of 2, got: $arrays"
scontrol show job -o "$merge" | grep -q 'TimeLimit=00:05:00' || fail "--slurm-time did not reach the merge job"
s=$(wait_job "$merge")
[[ "$s" == COMPLETED ]] || fail "merge job $merge ended $s: $(cat "$OUT"/logs/merge-*.log)"
for a in $arrays; do [[ "$(state "$a")" == COMPLETED ]] || fail "array $a: $(state "$a")"; done
same_files "$OUT"
say "7 shards in arrays $arrays, merge $merge: the same bytes as the one-machine sweep"

# 2. A reused output directory is refused before anything is submitted.
if msg=$(cd "$TMP" && bash good.sh 2>&1); then fail "a reused --out was accepted"; fi
grep -q "already holds 7 shard files" <<<"$msg" || fail "reused --out: $msg"
[[ -z "$(squeue -h)" ]] || fail "a refused script submitted jobs: $(squeue -h)"

# 3. A binary that is not there is refused before anything is submitted.
"$PACKLAB" "${SWEEP[@]}" --emit slurm --shards 2 --packlab-bin "$TMP/nowhere/packlab" --out "$TMP/o3" >"$TMP/nobin.sh"
if msg=$(bash "$TMP/nobin.sh" 2>&1); then fail "a missing binary was accepted"; fi
grep -q "nowhere/packlab is not an executable file: emit the script again with --packlab-bin" <<<"$msg" || fail "missing binary: $msg"
[[ -z "$(squeue -h)" ]] || fail "a refused script submitted jobs: $(squeue -h)"
say "a reused --out and a missing binary are refused before submitting"

# 4. Shard 2 fails (a binary that exits 1 for it while $TMP/break exists).
cat >"$TMP/flaky" <<EOF
#!/usr/bin/env bash
if [[ -e $TMP/break && " \$* " == *" 2/3 "* ]]; then echo "flaky: shard 2 breaks" >&2; exit 1; fi
exec "$PACKLAB" "\$@"
EOF
chmod +x "$TMP/flaky"
touch "$TMP/break"
OUT4="$TMP/failing"
"$PACKLAB" "${SWEEP[@]}" --emit slurm --shards 3 --packlab-bin "$TMP/flaky" --out "$OUT4" >"$TMP/flaky.sh"
said=$(SBATCH_TIMELIMIT=7 bash "$TMP/flaky.sh") || fail "the flaky script did not submit"
merge=$(field "$said" merge)
scontrol show job -o "$merge" | grep -q 'TimeLimit=00:07:00' || fail "SBATCH_TIMELIMIT did not reach the merge job"
s=$(wait_job "$merge")
[[ "$s" == FAILED ]] || fail "with shard 2 failing, the merge job ended $s, not FAILED"
log=$(cat "$OUT4/logs/merge-$merge.log")
grep -q "merge refused: shards 2 of 3 did not write" <<<"$log" || fail "merge log: $log"
grep -q "flaky.sh rerun 2" <<<"$log" || fail "the merge log does not say how to rerun: $log"
grep -q "FAILED" <<<"$(state "$(field "$said" arrays)")" || fail "the failed shard's task is not FAILED"
grep -qs "flaky: shard 2 breaks" "$OUT4"/logs/shard-*_2.log || fail "the failed shard's log lacks its error"
if msg=$(bash "$TMP/flaky.sh" merge 2>&1); then fail "merge of 2 of 3 shards succeeded"; fi
grep -q "merge refused: shards 2 of 3" <<<"$msg" || fail "merge by hand: $msg"
rm "$TMP/break"
said=$(bash "$TMP/flaky.sh" rerun 2) || fail "rerun 2 did not submit"
s=$(wait_job "$(field "$said" merge)")
[[ "$s" == COMPLETED ]] || fail "after rerun 2 the merge ended $s"
same_files "$OUT4"
say "a failed shard fails the merge job with a message, merge refuses, rerun 2 completes it"

# 5. sbatch refuses the merge job: the arrays, held until then, are cancelled and never run.
mkdir -p "$TMP/bin"
cat >"$TMP/bin/sbatch" <<EOF
#!/usr/bin/env bash
for arg; do [[ "\$arg" == merge ]] && { echo "sbatch: error: refused for the test" >&2; exit 1; }; done
exec $(command -v sbatch) "\$@"
EOF
chmod +x "$TMP/bin/sbatch"
OUT5="$TMP/orphan"
"$PACKLAB" "${SWEEP[@]}" --emit slurm --shards 2 --out "$OUT5" >"$TMP/orphan.sh"
if msg=$(PATH="$TMP/bin:$PATH" bash "$TMP/orphan.sh" 2>&1); then fail "a refused merge job went unnoticed"; fi
grep -q "sbatch refused the merge job (above); cancelled the job arrays already accepted" <<<"$msg" || fail "orphan: $msg"
array=$(grep -o 'accepted ([0-9 ]*)' <<<"$msg" | tr -dc '0-9')
[[ "$(state "$array")" == CANCELLED ]] || fail "array $array: $(state "$array"), not CANCELLED"
sleep 1
[[ -z "$(ls -A "$OUT5/shards")" ]] || fail "a cancelled array wrote shards"
say "a refused merge job cancels its array ($array) before any shard runs"
say "ok"
