#!/usr/bin/env bash
# comparison_proof.sh: the evidence that `harness compare` neither cries wolf nor misses a real
# slowdown on this machine (issue #33, docs/comparing-results.md): three A/A pairs of one build run
# back to back, and three A/B pairs where the fake_slowdown plugin is made 15 % slower, beside
# cpu_serial and openmp; each pair compared alone, then the three runs a side together.
#
# usage: tools/comparison_proof.sh BUILD_DIR OUT_DIR [harness options for every run...]
#   BUILD_DIR: a build with the tests (bin/harness, tests/fake_plugins/slowdown)
#   OUT_DIR:   gets aa/pairN-{a,b}.json, ab/pairN-{a,b}.json, each pair's compare and the 3-a-side
# A run already in OUT_DIR is kept, so a stopped proof goes on where it stopped (a run is moved
# into place only once it has finished).
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n 's/^# \{0,1\}//p' "$0" | sed -n '2,11p' >&2
  exit 2
fi
build=$1 out=$2
shift 2
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

for i in 1 2 3; do
  run "$out/aa/pair$i-a.json" "$@"
  run "$out/aa/pair$i-b.json" "$@"
  with_fake=(--plugin-dir "$slowdown" -p cpu_serial,openmp,fake_slowdown -w reduce "$@")
  run "$out/ab/pair$i-a.json" "${with_fake[@]}"
  PLUGBENCH_FAKE_SLOWDOWN=0.15 run "$out/ab/pair$i-b.json" "${with_fake[@]}"
done

for kind in aa ab; do
  for i in 1 2 3; do
    "$harness" compare "$out/$kind/pair$i-a.json" "$out/$kind/pair$i-b.json" \
      >"$out/$kind/pair$i-compare.txt" || true
  done
  "$harness" compare --base "$out/$kind/pair1-a.json" --base "$out/$kind/pair2-a.json" \
    --base "$out/$kind/pair3-a.json" --new "$out/$kind/pair1-b.json" \
    --new "$out/$kind/pair2-b.json" --new "$out/$kind/pair3-b.json" \
    >"$out/$kind/three-runs-a-side.txt" || true
  grep -h "cells compared" "$out/$kind"/*.txt
done
