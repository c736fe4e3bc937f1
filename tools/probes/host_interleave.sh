#!/usr/bin/env bash
# host_interleave.sh: the harness's openmp reduce/dot cells and the host probe, run in turn ROUNDS
# times in one session, so that a host whose speed drifts between minutes (a shared virtual
# machine) moves both sides alike. Each run's CPU steal (from /proc/stat) is logged beside it.
# Usage: tools/probes/host_interleave.sh HARNESS PROBE OUTDIR [ROUNDS] [SIZES] [HARNESS OPTIONS...]
#   SIZES as log2 n, comma-separated (default 22,24,26). Writes OUTDIR/harness-<cache>-<round>.json,
#   OUTDIR/probe-<round>.csv and OUTDIR/steal.log; then compare_probe.py pools them.
set -uo pipefail
harness="$1" probe="$2" out="$3" rounds="${4:-3}" sizes="${5:-22,24,26}"
shift $(($# < 5 ? $# : 5))  # what is left goes to every harness run
mkdir -p "$out"
harness_sizes=$(echo "$sizes" | sed 's/\([0-9]\+\)/2^\1/g')

cpu_ticks() { awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $9}' /proc/stat; }
logged() {  # NAME OUTPUT COMMAND...: runs it (stdout and stderr to OUTPUT), logs wall seconds
  local name="$1" output="$2"  # and the share of CPU time the hypervisor stole meanwhile
  shift 2
  read -r total0 steal0 < <(cpu_ticks)
  local t0=$(date +%s.%N)
  "$@" >"$output" 2>&1
  local rc=$?
  local t1=$(date +%s.%N)
  read -r total1 steal1 < <(cpu_ticks)
  awk -v n="$name" -v rc="$rc" -v t0="$t0" -v t1="$t1" -v a="$total0" -v b="$total1" \
    -v s="$steal0" -v u="$steal1" \
    'BEGIN{printf "%s rc=%d wall=%.1fs steal=%.2f%%\n", n, rc, t1-t0, (b>a)?100*(u-s)/(b-a):0}' \
    | tee -a "$out/steal.log"
}

for round in $(seq 1 "$rounds"); do
  logged "probe-$round" "$out/probe-$round.err" sh -c "'$probe' --sizes $sizes --cache both -r 20 >'$out/probe-$round.csv'"
  for cache in cold warm; do
    logged "harness-$cache-$round" "$out/harness-$cache-$round.txt" "$harness" -p openmp -w reduce,dot -v parallel_for \
      -s "$harness_sizes" --cache "$cache" -r 20 -q --json "$out/harness-$cache-$round.json" "$@"
  done
done
