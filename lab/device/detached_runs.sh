#!/usr/bin/env bash
# detached_runs.sh: harness runs that outlast one device call (600 s). `start` builds (through
# tools/device_run.sh's build, host-only settings from the environment) and starts the runs in a
# detached session, one after another, into /tmp/detached/NAME.json; `wait S` waits up to S
# seconds for them and copies what has finished (and the partial files) to $OUT. Chain the calls
# within the machine's idle release.
#   lab/device/detached_runs.sh start "NAME1 NAME2" HARNESS_OPTIONS...
#   lab/device/detached_runs.sh wait 570
set -uo pipefail
cd "$(dirname "$0")/../.."
state=/tmp/detached
mkdir -p "$state" "${OUT:=/tmp/plugbench_device_out}"
case "$1" in
  start)
    names=$2
    shift 2
    # Build only: device_run.sh's harness stage with a run that exits at once.
    tools/device_run.sh harness build-check --version >/dev/null 2>&1 || true
    [[ -x build-device/bin/harness ]] || { echo "detached_runs: the build failed"; tail -40 "$OUT/build.log"; exit 1; }
    {
      echo 'cd "$1"'
      for name in $names; do
        echo "build-device/bin/harness --json $state/$name.json $(printf '%q ' "$@")>$state/$name.txt 2>$state/$name.err"
        echo "echo \"$name exit \$?\" >>$state/done"
      done
      echo "echo all >>$state/done"
    } >"$state/runs.sh"
    setsid nohup bash "$state/runs.sh" "$PWD" >/dev/null 2>&1 </dev/null &
    echo "detached_runs: started $names (pid $!)"
    sleep 2
    ;;
  wait)
    limit=$2
    started=$SECONDS
    while ! grep -qx all "$state/done" 2>/dev/null && ((SECONDS - started < limit)); do sleep 5; done
    cp "$state"/* "$OUT"/ 2>/dev/null
    cat "$state/done" 2>/dev/null
    grep -qx all "$state/done" 2>/dev/null && echo "detached_runs: all finished" ||
      echo "detached_runs: still running after $((SECONDS - started)) s"
    ;;
esac
