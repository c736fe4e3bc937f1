#!/usr/bin/env bash
# comparison_proof_batch.sh: issue #33's proof on the GPU machine's host (tools/comparison_proof.sh),
# which outlasts one device call (600 s): `start` builds the harness, every plugin and the
# fake_slowdown test plugin (not the tests) and starts the proof in a detached session into
# /tmp/proof; `wait S` waits up to S seconds for it, then packs what it has made so far (finished
# runs and compares) into comparison-proof.tgz with its log. Chain the calls within the machine's
# idle release; a later `start` on a fresh machine makes the proof again from its first run.
#   PLUGBENCH_SOURCE_COMMIT=<hash> [PAIRS=3] [AB_PAIRS=3] lab/device/comparison_proof_batch.sh start
#   lab/device/comparison_proof_batch.sh wait 570
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:=/tmp/plugbench_device_out}"
export OUT
mkdir -p "$OUT"
proof=/tmp/proof
case "${1:-}" in
  start)
    nvidia-smi -L
    date -u
    : "${PLUGBENCH_BUILD_TARGETS:=harness plugbench_plugin_cpu_serial plugbench_plugin_openmp \
plugbench_plugin_cuda_naive plugbench_plugin_cuda_optimized plugbench_plugin_thrust \
plugbench_plugin_cub plugbench_plugin_fake_slowdown}"
    export PLUGBENCH_BUILD_TARGETS
    # Build only: device_run.sh's harness stage with a run that exits at once.
    tools/device_run.sh harness build-check --version >/dev/null 2>&1
    [[ -x build-device/bin/harness &&
      -e build-device/tests/fake_plugins/slowdown/libplugbench_fake_slowdown.so ]] ||
      { echo "comparison_proof_batch: the build failed"; tail -40 "$OUT/build.log"; exit 1; }
    date -u
    mkdir -p "$proof"
    setsid nohup env PAIRS="${PAIRS:-3}" AB_PAIRS="${AB_PAIRS:-3}" \
      tools/comparison_proof.sh build-device "$proof" >"$proof/proof.log" 2>&1 </dev/null &
    echo $! >"$proof/pid"
    echo "comparison_proof_batch: started (pid $!)"
    sleep 2
    ;;
  wait)
    limit=${2:-570}
    started=$SECONDS
    running() { kill -0 "$(cat "$proof/pid" 2>/dev/null)" 2>/dev/null; }
    while running && ((SECONDS - started < limit)); do sleep 5; done
    running && echo "comparison_proof_batch: still running" || echo "comparison_proof_batch: finished"
    # The proof's log: each run's seconds, then each compare's summary line.
    cat "$proof/proof.log"
    (cd "$proof" && tar czf "$OUT/comparison-proof.tgz" --exclude='*.part' .)
    date -u
    ;;
  *) echo "usage: $0 start|wait SECONDS" >&2; exit 2 ;;
esac
