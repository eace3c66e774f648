#!/usr/bin/env bash
# packlab sweep @ID@ in @SHARDS@ shards on Slurm, written by `packlab sweep … --emit slurm`
# (packlab @VERSION@). Save it to a file and run it with bash (not sbatch) where sbatch works:
#
#   bash FILE             check the binary and the output directory, then submit the shards as
#                         a job array and a merge job that runs when every shard has ended
#   bash FILE merge       merge the shards now, here (after `rerun`, or to see what is missing)
#   bash FILE rerun LIST  submit the shards LIST again (e.g. 3,7-9), then the merge
#
# Slurm runs this same file for the shards (`shard`) and the merge. The binary and the output
# directory must be on a file system every node sees. A shard that fails makes the merge job
# fail with a message in its log that names the missing shards and the `rerun` to type.
#
# Resources: the emitting command's --slurm-time, --slurm-mem, --slurm-partition and
# --slurm-account are in SBATCH_OPTS below, for every job. sbatch also reads SBATCH_TIMELIMIT,
# SBATCH_MEM_PER_NODE, SBATCH_PARTITION and SBATCH_ACCOUNT from the environment; options in
# SBATCH_OPTS win over them.
set -euo pipefail

PACKLAB=@PACKLAB@
OUT=@OUT@
ID=@ID@
SHARDS=@SHARDS@
SBATCH_OPTS=(@SBATCH_OPTS@)
# The most shards running at once (--max-running); empty: as many as Slurm allows.
MAX_RUNNING=@MAX_RUNNING@

die() {
  printf 'packlab: %s\n' "$*" >&2
  exit 1
}

# Shard I writes "$SHARD_FILE-I-of-$SHARDS.jsonl".
SHARD_FILE="$OUT/shards/$ID-shard"

# The shards whose files are missing, as a rerun LIST of shards and ranges (e.g. 3,7-9).
missing() {
  local i from=0 list=()
  for ((i = 1; i <= SHARDS + 1; i++)); do
    if ((i <= SHARDS)) && [[ ! -f "$SHARD_FILE-$i-of-$SHARDS.jsonl" ]]; then
      if ((from == 0)); then from=$i; fi
    elif ((from > 0)); then
      if ((i - 1 > from)); then list+=("$from-$((i - 1))"); else list+=("$from"); fi
      from=0
    fi
  done
  local IFS=,
  printf '%s' "${list[*]}"
}

case "${1:-submit}" in
  shard)
    # Slurm runs this once per array task; $2 is the array's offset (arrays are split at the
    # cluster's MaxArraySize), so the shard is offset + task id.
    task=${SLURM_ARRAY_TASK_ID:?is unset: Slurm runs this step, as a task of the array}
    shard=$((${2:-0} + task))
    echo "packlab: shard $shard/$SHARDS on $HOSTNAME, job ${SLURM_ARRAY_JOB_ID:-?}_$task"
    [[ -x "$PACKLAB" ]] || die "$PACKLAB is not an executable file on $HOSTNAME: emit the script again with --packlab-bin PATH, a path every node sees"
    exec "$PACKLAB" sweep @ARGS@ --shard "$shard/$SHARDS" --out "$OUT/shards"
    ;;
  merge)
    # $2: the path of this file where it was submitted from (Slurm runs a copy).
    self=${2:-$0}
    lost=$(missing)
    if [[ -n "$lost" ]]; then
      die "merge refused: shards $lost of $SHARDS did not write $SHARD_FILE-I-of-$SHARDS.jsonl (their logs: $OUT/logs/shard-*.log). Submit them again with: bash $(printf %q "$self") rerun $lost"
    fi
    "$PACKLAB" merge "$OUT/shards" --out "$OUT" ||
      die "merge refused (above); the shards' logs are in $OUT/logs"
    exit 0
    ;;
  submit | rerun) ;;
  *) die "unknown step '$1': give no argument (submit), merge, or rerun LIST" ;;
esac

self=$(realpath -e -- "${BASH_SOURCE[0]}" 2>/dev/null) ||
  die "save this script to a file and run it with bash FILE: Slurm runs that file for the shards and the merge"
command -v sbatch >/dev/null || die "sbatch is not on the PATH: run this script where Slurm jobs are submitted"
[[ -x "$PACKLAB" && ! -d "$PACKLAB" ]] ||
  die "$PACKLAB is not an executable file: emit the script again with --packlab-bin PATH, the packlab binary on a file system every node sees"
version=$("$PACKLAB" --version 2>&1) || die "$PACKLAB --version failed: $version"
# Another version may read the sweep's link differently; the merge refuses shards of mixed
# versions, but a whole sweep by another one is only worth a warning.
[[ "$version" == "packlab @VERSION@" ]] ||
  printf 'packlab: warning: %s is "%s", the script was written by packlab @VERSION@\n' "$PACKLAB" "$version" >&2
mkdir -p "$OUT/shards" "$OUT/logs" || die "cannot create $OUT/shards and $OUT/logs"

shards=()
if [[ "${1:-submit}" == rerun ]]; then
  [[ -n "${2:-}" ]] || die "rerun needs the shards, e.g. rerun 3,7-9 (\`bash $self merge\` lists the missing ones)"
  IFS=, read -ra parts <<<"$2"
  for part in "${parts[@]}"; do
    [[ "$part" =~ ^([0-9]+)(-([0-9]+))?$ ]] || die "rerun $2: '$part' is not a shard I or a range I-J"
    first=$((10#${BASH_REMATCH[1]}))
    last=$((10#${BASH_REMATCH[3]:-${BASH_REMATCH[1]}}))
    ((1 <= first && first <= last && last <= SHARDS)) || die "rerun $2: shards are 1 to $SHARDS"
    for ((i = first; i <= last; i++)); do shards+=("$i"); done
  done
  mapfile -t shards < <(printf '%s\n' "${shards[@]}" | sort -nu)
  # A shard that fails again must not leave its old file for the merge.
  for i in "${shards[@]}"; do rm -f -- "$SHARD_FILE-$i-of-$SHARDS.jsonl"; done
else
  shopt -s nullglob
  stale=("$OUT"/shards/*-shard-*-of-*.jsonl)
  shopt -u nullglob
  if ((${#stale[@]})); then
    die "$OUT/shards already holds ${#stale[@]} shard files of an earlier submission, which a merge would take for this one's: remove them (rm -r $(printf %q "$OUT/shards")) or emit with another --out; to submit only failed shards again: bash $self rerun LIST"
  fi
  for ((i = 1; i <= SHARDS; i++)); do shards+=("$i"); done
fi

# Array task ids run from 0 to MaxArraySize − 1: a larger sweep goes in several arrays of
# `per` tasks, the shard being the array's offset plus the task id.
max_array=$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" { print $3 }') || true
[[ "$max_array" =~ ^[0-9]+$ ]] || max_array=1001
((max_array >= 2)) || die "the cluster's MaxArraySize is $max_array: no job array can hold a shard 1"
per=$((max_array - 1))

arrays=()
# Cancels what was submitted (held: nothing ran), then stops with message $1.
undo() {
  if ((${#arrays[@]})); then
    scancel "${arrays[@]}" || true
    die "$1; cancelled the job arrays already accepted (${arrays[*]}), which were held and ran nothing"
  fi
  die "$1"
}

# Submits tasks $2 (a Slurm array spec) of the array with offset $1, held until the merge is in.
submit_array() {
  local opts=(--parsable --hold --job-name="packlab-$ID" --output="$OUT/logs/shard-%A_%a.log")
  opts+=(--array="$2${MAX_RUNNING:+%$MAX_RUNNING}")
  # With a throttle, the arrays run one after another so that it holds across them.
  if [[ -n "$MAX_RUNNING" ]] && ((${#arrays[@]})); then opts+=(--dependency="afterany:${arrays[-1]}"); fi
  local id
  id=$(sbatch "${opts[@]}" "${SBATCH_OPTS[@]}" "$self" shard "$1") || undo "sbatch refused the array of shards $(($1 + 1))-$(($1 + per)) (above)"
  arrays+=("${id%%;*}")
}

# The shards, grouped by array, as ranges of task ids.
chunk=-1 spec="" from=0 to=0
flush_range() {
  if ((to > from)); then spec+="${spec:+,}$from-$to"; elif ((to > 0)); then spec+="${spec:+,}$from"; fi
}
for shard in "${shards[@]}"; do
  c=$(((shard - 1) / per)) task=$((shard - (shard - 1) / per * per))
  if ((c != chunk)); then
    flush_range
    if ((chunk >= 0)); then submit_array $((chunk * per)) "$spec"; fi
    chunk=$c spec="" from=$task to=$task
  elif ((task == to + 1)); then
    to=$task
  else
    flush_range
    from=$task to=$task
  fi
done
flush_range
submit_array $((chunk * per)) "$spec"

# afterany, not afterok: the merge runs whatever the shards did, and when one failed it fails
# itself with a message naming the shards (a merge cancelled by afterok leaves no log).
deps=$(IFS=: && echo "${arrays[*]}")
merge=$(sbatch --parsable --job-name="packlab-$ID-merge" --dependency="afterany:$deps" \
  --kill-on-invalid-dep=yes --output="$OUT/logs/merge-%j.log" "${SBATCH_OPTS[@]}" "$self" merge "$self") ||
  undo "sbatch refused the merge job (above)"
merge=${merge%%;*}
scontrol release "$(IFS=, && echo "${arrays[*]}")" || {
  scancel "$merge" "${arrays[@]}" || true
  die "scontrol release failed (above); cancelled the held job arrays ${arrays[*]} and the merge job $merge"
}

echo "packlab: submitted ${#shards[@]} of $SHARDS shards as job array(s) ${arrays[*]} and the merge job $merge ($version)"
echo "  progress: squeue -j $(IFS=, && echo "${arrays[*]},$merge")"
echo "  logs:     $OUT/logs/shard-ARRAY_TASK.log, $OUT/logs/merge-$merge.log"
echo "  results:  $OUT when the merge job has ended (if a shard fails, the merge job fails and its log says what to rerun)"
echo "arrays: ${arrays[*]}"
echo "merge: $merge"
