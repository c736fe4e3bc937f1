#!/usr/bin/env bash
# comparison_proof.sh: the evidence that `harness compare` neither cries wolf nor misses a real
# slowdown on this machine (issue #33, docs/comparing-results.md): PAIRS A/A pairs of one build run
# back to back (a b a b ...), and PAIRS A/B pairs where the fake_slowdown plugin is made 15 %
# slower, beside cpu_serial and openmp; each pair compared alone, then 3, 5, ... runs a side.
#
# usage: [PAIRS=3] tools/comparison_proof.sh BUILD_DIR OUT_DIR [harness options for every run...]
#   BUILD_DIR: a build with the tests (bin/harness, tests/fake_plugins/slowdown)
#   OUT_DIR:   gets aa/pairN-{a,b}.json, ab/pairN-{a,b}.json, each pair's compare, and
#              K-runs-a-side.txt for K = 3, 5, ... up to PAIRS (the first K pairs of each kind)
# A run already in OUT_DIR is kept, so a stopped proof goes on where it stopped (a run is moved
# into place only once it has finished).
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n 's/^# \{0,1\}//p' "$0" | sed -n '2,12p' >&2
  exit 2
fi
build=$1 out=$2
shift 2
pairs=${PAIRS:-3}
[[ "$pairs" =~ ^[1-9][0-9]*$ ]] || { echo "comparison_proof: PAIRS='$pairs' is not a count" >&2; exit 2; }
harness=$build/bin/harness
slowdown=$build/tests/fake_plugins/slowdown
for path in "$harness" "$slowdown/libplugbench_fake_slowdown.so"; do
  [ -e "$path" ] || { echo "comparison_proof: $path not found (build the tests first)" >&2; exit 2; }
done
mkdir -p "$out/aa" "$out/ab"

# run FILE HARNESS_OPTIONS...: one harness run into FILE, unless FILE is already there.
run() {
  local file=$1
  shift
  [ -e "$file" ] && { echo "comparison_proof: keeping $file" >&2; return 0; }
  local started=$SECONDS
  "$harness" "$@" --json "$file.part" -q >/dev/null
  mv "$file.part" "$file"
  echo "comparison_proof: $file in $((SECONDS - started)) s" >&2
}

for ((i = 1; i <= pairs; ++i)); do
  run "$out/aa/pair$i-a.json" "$@"
  run "$out/aa/pair$i-b.json" "$@"
  with_fake=(--plugin-dir "$slowdown" -p cpu_serial,openmp,fake_slowdown -w reduce "$@")
  run "$out/ab/pair$i-a.json" "${with_fake[@]}"
  PLUGBENCH_FAKE_SLOWDOWN=0.15 run "$out/ab/pair$i-b.json" "${with_fake[@]}"
done

for kind in aa ab; do
  for ((i = 1; i <= pairs; ++i)); do
    "$harness" compare "$out/$kind/pair$i-a.json" "$out/$kind/pair$i-b.json" \
      >"$out/$kind/pair$i-compare.txt" || true
  done
  for ((k = 3; k <= pairs; k += 2)); do
    sides=()
    for ((i = 1; i <= k; ++i)); do
      sides+=(--base "$out/$kind/pair$i-a.json" --new "$out/$kind/pair$i-b.json")
    done
    "$harness" compare "${sides[@]}" >"$out/$kind/$k-runs-a-side.txt" || true
  done
  grep -h "cells compared" "$out/$kind"/*.txt
done
