#!/usr/bin/env bash
# comparison_proof.sh: the evidence that `harness compare` neither cries wolf nor misses a real
# slowdown on this machine (issue #33, docs/comparing-results.md): PAIRS A/A pairs of one build run
# back to back (a b a b ...), and AB_PAIRS A/B pairs where the fake_slowdown plugin is made 15 %
# slower, beside cpu_serial and openmp; compared pair by pair (one run a side), in disjoint groups
# of GROUP pairs (GROUP runs a side), and all pairs at once; and each pair alone again with
# --history, a results history of the other runs of one build (docs/comparing-results.md).
#
# usage: [PAIRS=3] [AB_PAIRS=PAIRS] [GROUP=3] tools/comparison_proof.sh BUILD_DIR OUT_DIR [opts...]
#   BUILD_DIR: a build with the tests (bin/harness, tests/fake_plugins/slowdown)
#   OUT_DIR:   gets aa/pairN-{a,b}.json, ab/pairN-{a,b}.json, each pair's compare, pairs-I-J.txt
#              for each disjoint group of GROUP pairs, all-N-runs-a-side.txt, and
#              pairN-over-history.txt: the pair against the earlier runs of the others
#   opts:      harness options for every run
# A run already in OUT_DIR is kept, so a stopped proof goes on where it stopped (a run is moved
# into place only once it has finished), and with every run there it only compares.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n 's/^# \{0,1\}//p' "$0" | sed -n '2,14p' >&2
  exit 2
fi
build=$1 out=$2
shift 2
pairs=${PAIRS:-3}
ab_pairs=${AB_PAIRS:-$pairs}
group=${GROUP:-3}
for count in "$pairs" "$ab_pairs" "$group"; do
  [[ "$count" =~ ^[1-9][0-9]*$ ]] || {
    echo "comparison_proof: PAIRS, AB_PAIRS and GROUP must be counts ('$count' is not)" >&2
    exit 2
  }
done
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

most=$((pairs > ab_pairs ? pairs : ab_pairs))
for ((i = 1; i <= most; ++i)); do
  if ((i <= pairs)); then
    run "$out/aa/pair$i-a.json" "$@"
    run "$out/aa/pair$i-b.json" "$@"
  fi
  if ((i <= ab_pairs)); then
    with_fake=(--plugin-dir "$slowdown" -p cpu_serial,openmp,fake_slowdown -w reduce "$@")
    run "$out/ab/pair$i-a.json" "${with_fake[@]}"
    PLUGBENCH_FAKE_SLOWDOWN=0.15 run "$out/ab/pair$i-b.json" "${with_fake[@]}"
  fi
done

# The history of one build's runs: every A/A run, and the A/B pairs' a runs (their b runs are
# another build). compare leaves the two files it compares out of it.
history=$(mktemp -d)
trap 'rm -rf "$history"' EXIT
"$harness" history add --history "$history/aa.sqlite" "$out"/aa/pair*-[ab].json >/dev/null
"$harness" history add --history "$history/ab.sqlite" "$out"/ab/pair*-a.json >/dev/null

# compare KIND OUTPUT FIRST LAST: pairs FIRST..LAST of KIND, their a runs against their b runs.
compare() {
  local kind=$1 output=$2 sides=() i
  for ((i = $3; i <= $4; ++i)); do
    sides+=(--base "$out/$kind/pair$i-a.json" --new "$out/$kind/pair$i-b.json")
  done
  "$harness" compare "${sides[@]}" >"$out/$kind/$output" || true
}
for kind in aa ab; do
  count=$pairs
  [ "$kind" = ab ] && count=$ab_pairs
  # Earlier runs beside each pair: the other A/A runs, or the other A/B pairs' a runs.
  earlier=$((count - 1))
  [ "$kind" = aa ] && earlier=$((2 * count - 2))
  for ((i = 1; i <= count; ++i)); do
    compare "$kind" "pair$i-compare.txt" "$i" "$i"
    # Three earlier runs or more, else --history has nothing to judge by.
    ((earlier >= 3)) || continue
    "$harness" compare "$out/$kind/pair$i-a.json" "$out/$kind/pair$i-b.json" \
      --history "$history/$kind.sqlite" >"$out/$kind/pair$i-over-history.txt" || true
  done
  if ((group > 1)); then
    for ((first = 1; first + group - 1 <= count; first += group)); do
      compare "$kind" "pairs-$first-$((first + group - 1)).txt" "$first" $((first + group - 1))
    done
  fi
  ((count > 1)) && compare "$kind" "all-$count-runs-a-side.txt" 1 "$count"
  # The summary line of each compare written above (a compare that failed has none).
  for file in "$out/$kind"/pair*-compare.txt "$out/$kind"/pair*-over-history.txt \
    "$out/$kind"/pairs-*.txt "$out/$kind"/all-*.txt; do
    [ -e "$file" ] || continue
    line=$(grep -h ": [0-9]* cells compared:" "$file" || true)
    echo "${line//"$out/"/}"
  done
done
