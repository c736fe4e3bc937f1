#!/usr/bin/env bash
# remake_h200_batch.sh: issue #33's remake of the committed H200 sweeps and targets under the
# measurement protocol (interleaved rounds, paired ratios; results/README.md lists the files made
# before it), with each old file's command (the incomplete ones' workloads and distributions, now
# to the end). The runs take about an hour of device time, more than a session's, so the batch
# resumes: a run whose results/h200/NAME.json is already under the protocol (schema_version 2 or
# later) is skipped, so committing each finished file moves the next session on. The new
# targets-histogram-mandelbrot gives each workload its own sizes (the old one ran Mandelbrot at
# 2^30 pixels by mistake) and holds targets-mandelbrot's cells too.
# `start` builds the harness and every plugin and starts the remaining runs one after another in
# a detached session; `wait S` waits up to S seconds and packs the finished runs (.json, .txt,
# .err) into remake.tgz; `stop` ends the run in progress with SIGTERM, on which the harness writes
# the cells it has finished ("complete": false), and packs it too: before the session's device
# time runs out. Chain the calls within the machine's idle release (30 s); H200 only.
#   PLUGBENCH_SOURCE_COMMIT=<hash> lab/device/remake_h200_batch.sh start
#   lab/device/remake_h200_batch.sh wait 570
#   lab/device/remake_h200_batch.sh stop
#   lab/device/remake_h200_batch.sh list         the runs left, here (no GPU needed)
# (device calls carry [".deps"]). sweep-reduce-dot-histogram is the longest (about 20 minutes by
# the cells of targets-optimized-vs-cub): a session that makes it should start with it (ONLY=).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
: "${OUT:=/tmp/plugbench_device_out}"
export OUT
state=/tmp/remake

# NAME | harness options: the targets first (GPU plugins only, minutes), then the sweeps.
runs() {
  cat <<'LIST'
targets-reduce-dot-sort|-p cub,thrust,cuda_optimized -w reduce,dot,sort -d all -s 2^16,2^20,2^28
targets-scan-compact|-p cub,thrust,cuda_optimized -w scan,compact -d all -s 2^16,2^20,2^24,2^28
targets-histogram-mandelbrot|-p cub,thrust,cuda_optimized,cuda_naive -w histogram,mandelbrot -d all -s histogram=2^16,2^20,3840x2160,7680x4320,2^30 -s mandelbrot=2^16,2^20,3840x2160,7680x4320
targets-mandelbrot|-p thrust,cuda_optimized,cuda_naive -w mandelbrot -s 2^16,2^20,3840x2160
sweep-mandelbrot|-w mandelbrot -s 640x360,1280x720,1920x1080,3840x2160 --host-memory both
sweep-reduce-dot-histogram|-w reduce,dot,histogram -d mod100,signed,near_max,uniform,large_first,photo -s 2^10..2^28*4 --host-memory both
sweep-histogram-flat-scan-compact|-w histogram,scan,compact -d flat,small,random,keep50 -s 2^10..2^28*4 --host-memory both
sweep-compact-rest|-w compact -d keep1,keep99 -s 2^10..2^28*4 --host-memory both
sweep-sort|-w sort -d uniform,sorted -s 2^10..2^28*4 --host-memory both -p openmp,cub,cuda_naive,cuda_optimized,thrust --baseline openmp
sweep-sort-rest|-w sort -d reverse,equal,few,top_bit -s 2^10..2^28*4 --host-memory both -p openmp,cub,cuda_naive,cuda_optimized,thrust --baseline openmp
LIST
}

# under_protocol NAME: results/h200/NAME.json is there, complete, and made in interleaved rounds
# (a stopped run's file is not: it is made again).
under_protocol() {
  python3 - "results/h200/$1.json" <<'PY' 2>/dev/null
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d.get("complete") is True and
         d["context"]["settings"].get("order") == "interleaved" else 1)
PY
}

# The runs not yet made; ONLY=NAME[,NAME...] keeps those alone (to fit a session's device time).
left() {
  runs | while IFS='|' read -r name options; do
    [[ -n "${ONLY:-}" && ",$ONLY," != *",$name,"* ]] && continue
    under_protocol "$name" || echo "$name|$options"
  done
}

case "${1:-}" in
  list) left | cut -d'|' -f1 ;;
  start)
    say() { echo "remake_h200_batch: $*"; }
    nvidia-smi -L | grep H200 >/dev/null || { nvidia-smi -L; say "not an H200; nothing run"; exit 3; }
    pgrep -f "bash $state/runs.sh" >/dev/null &&
      { say "a batch is running here already (wait or stop it)"; exit 3; }
    date -u
    rm -rf "$state"
    mkdir -p "$OUT" "$state"
    # Build only (the harness and the six plugins, no tests): device_run.sh's harness stage with a
    # run that exits at once; a plugin that failed to build would drop out of the runs unseen.
    : "${PLUGBENCH_BUILD_TARGETS:=harness plugbench_plugin_cpu_serial plugbench_plugin_openmp \
plugbench_plugin_cuda_naive plugbench_plugin_cuda_optimized plugbench_plugin_thrust \
plugbench_plugin_cub}"
    export PLUGBENCH_BUILD_TARGETS
    tools/device_run.sh harness build-check --version >/dev/null 2>&1
    for built in build-device/bin/harness \
      build-device/bin/plugins/libplugbench_{cpu_serial,openmp,cuda_naive,cuda_optimized,thrust,cub}.so; do
      [[ -e "$built" ]] || { say "the build failed ($built)"; tail -40 "$OUT/build.log"; exit 1; }
    done
    {
      echo 'set -f  # the options are literal: 2^10..2^28*4 is no glob'
      echo 'cd "$1"'
      left | while IFS='|' read -r name options; do
        echo "OMP_PLACES=cores OMP_PROC_BIND=spread build-device/bin/harness" \
          "--json $state/$name.json $options -q >$state/$name.txt 2>$state/$name.err"
        echo "echo \"$name exit \$?\" >>$state/done"
      done
      echo "echo all >>$state/done"
    } >"$state/runs.sh"
    grep -c "harness --json" "$state/runs.sh" | sed 's/^/remake_h200_batch: runs to make: /'
    setsid nohup bash "$state/runs.sh" "$PWD" >/dev/null 2>&1 </dev/null &
    echo "remake_h200_batch: started (pid $!)"
    sleep 2
    ;;
  wait | stop)
    limit=${2:-570}
    started=$SECONDS
    running() { pgrep -f "bin/harness --json $state/" >/dev/null; }
    [[ -f "$state/runs.sh" ]] ||
      { echo "remake_h200_batch: no batch was started on this machine"; exit 3; }
    if [[ "$1" == stop ]]; then
      pkill -TERM -f "bash $state/runs.sh"  # no next run
      pkill -TERM -f "bin/harness --json $state/" &&
        echo "remake_h200_batch: stopped the run in progress"
      # The harness writes the cells it has finished, then exits 5.
      while running && ((SECONDS - started < 60)); do sleep 1; done
    else
      while ! grep -qx all "$state/done" 2>/dev/null && pgrep -f "bash $state/runs.sh" >/dev/null &&
        ((SECONDS - started < limit)); do sleep 5; done
    fi
    cat "$state/done" 2>/dev/null
    (cd "$state" && tar czf "$OUT/remake.tgz" ./*.json ./*.txt ./*.err 2>/dev/null)
    grep -qx all "$state/done" 2>/dev/null && echo "remake_h200_batch: all finished" ||
      echo "remake_h200_batch: not finished after $((SECONDS - started)) s"
    date -u
    ;;
  *) echo "usage: $0 start|wait SECONDS|stop|list" >&2; exit 2 ;;
esac
