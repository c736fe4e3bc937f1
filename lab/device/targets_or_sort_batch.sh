#!/usr/bin/env bash
# targets_or_sort_batch.sh: one device call that decides what the machine is good for. A host-only
# build, then the host's read peak from a short calibration: at 150 GB/s or more (an H100 host
# whose memory is not shared; any H200 host) it starts issue #37's deciding pair of target runs,
# detached (lab/device/detached_runs.sh; chain `wait` calls); below, the memory is shared and the
# pair could not decide the absolute targets, so it builds the CUDA plugins and measures issue
# #38's sort variants beside cub, checks them, and profiles them instead.
#   PLUGBENCH_SOURCE_COMMIT=<hash> lab/device/targets_or_sort_batch.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:=/tmp/plugbench_device_out}"
nvidia-smi -L
date -u
export PLUGBENCH_CUDA=OFF OMP_PLACES=cores OMP_PROC_BIND=spread
export PLUGBENCH_BUILD_TARGETS="harness plugbench_plugin_cpu_serial plugbench_plugin_openmp"
tools/device_run.sh harness build-check --version >/dev/null
build-device/bin/harness -p cpu_serial -w reduce -s 2^26 -r 5 --json "$OUT/memcheck.json" -q \
  >/dev/null 2>&1
read_gbps=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(int(max(p['gbps'] for p in d['context']['peaks']
              if p['pattern'] == 'read' and p['memory_space'] == 'host')))" "$OUT/memcheck.json")
echo "host read peak ${read_gbps:-?} GB/s"
if nvidia-smi -L | grep -q H200 || [[ "${read_gbps:-0}" -ge 150 ]]; then
  lab/device/detached_runs.sh start "targets-a targets-b" -p cpu_serial,openmp \
    -w reduce,dot,scan,compact,sort,histogram,mandelbrot -s 2^26,2^28 -s compact,sort=2^28 \
    -s histogram=7680x4320 -s mandelbrot=3840x2160 \
    -d mod100,uniform,small,random,keep50,keep1,keep99,sorted,reverse,equal,few,top_bit,photo,flat,full \
    -v all,-cpu_serial/std_sort,sub_histograms_dynamic &&
    lab/device/detached_runs.sh wait 400
else
  echo "memory shared with neighbours: no #37 pair; #38's sort instead"
  export PLUGBENCH_CUDA=ON PLUGBENCH_BUILD_TARGETS="harness plugbench_plugin_cuda_optimized plugbench_plugin_cub"
  unset PLUGBENCH_SKIP_BUILD OMP_PLACES OMP_PROC_BIND
  tools/device_run.sh harness sort38 -p cub,cuda_optimized -w sort -s 2^16,2^20,2^24,2^28 \
    -d uniform,sorted,equal,few,top_bit -v all,onesweep_atomic_or_match
  build-device/bin/harness --check-plugin build-device/bin/plugins/libplugbench_cuda_optimized.so \
    -w sort -v onesweep,onesweep_atomic_or_match >"$OUT/check38.txt" 2>&1
  tail -2 "$OUT/check38.txt"
  PLUGBENCH_SKIP_BUILD=1 PLUGBENCH_NCU_LAUNCHES=8 PLUGBENCH_NCU_KERNELS="regex:onesweep_kernel" \
    PLUGBENCH_NCU_SECTIONS="LaunchStats Occupancy SpeedOfLight WarpStateStats SchedulerStats InstructionStats MemoryWorkloadAnalysis" \
    tools/device_run.sh ncu sort38-ncu -p cuda_optimized -w sort -s 2^28 -d uniform \
    -v onesweep,onesweep_atomic_or_match
fi
date -u
