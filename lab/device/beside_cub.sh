# beside_cub.sh: sourced by issue #38's band batches (scan_band_batch.sh, init_kernel_batch.sh,
# write_out_batch.sh): a tunings build of the harness, cuda_optimized and cub, and the steps each
# batch takes with it. Sourcing it moves to the repository root and prints the GPU and the time.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
: "${OUT:=/tmp/plugbench_device_out}"
export OUT
mkdir -p "$OUT"
nvidia-smi -L
date -u
export PLUGBENCH_TUNINGS=ON
export PLUGBENCH_BUILD_TARGETS="harness plugbench_plugin_cuda_optimized plugbench_plugin_cub"

# run_beside_cub NAME SECONDS HARNESS-OPTIONS...: builds, then one run of cub beside
# cuda_optimized, paired over cub/library in the same rounds, saved as NAME.json/.txt; the later
# steps use that build.
run_beside_cub() {
  local name=$1 seconds=$2
  shift 2
  PLUGBENCH_HARNESS_TIMEOUT=$seconds tools/device_run.sh harness "$name" -p cub,cuda_optimized \
    "$@" --baseline cub/library
  export PLUGBENCH_SKIP_BUILD=1
}

# check_variants SECONDS HARNESS-OPTIONS...: --check-plugin on cuda_optimized into check.txt.
check_variants() {
  local seconds=$1
  shift
  timeout "$seconds" build-device/bin/harness --check-plugin \
    build-device/bin/plugins/libplugbench_cuda_optimized.so "$@" >"$OUT/check.txt" 2>&1
  echo "check-plugin exit code: $?"
  tail -2 "$OUT/check.txt"
}

# profile NAME PLUGIN KERNEL-FILTER HARNESS-OPTIONS...: Nsight Compute over the kernels of one
# run (caches flushed, clocks fixed), at most six launches.
profile() {
  local name=$1 plugin=$2 kernels=$3
  shift 3
  local sections="LaunchStats Occupancy SpeedOfLight WarpStateStats SchedulerStats"
  PLUGBENCH_NCU_TIMEOUT=90 PLUGBENCH_NCU_LAUNCHES=6 PLUGBENCH_NCU_KERNELS="$kernels" \
    PLUGBENCH_NCU_SECTIONS="$sections MemoryWorkloadAnalysis" \
    tools/device_run.sh ncu "$name" -p "$plugin" "$@"
}
