#!/usr/bin/env bash
# write_out_batch.sh: issue #38's compaction with 99 % kept, where cub leads from 2^22 to 2^25
# (lab/performance-log.md), in one device call (a tunings build): the shipped lookback_bulk beside
# lookback_bulk_vector_out (its kept items stored 16 bytes a thread, one sequence over the warps'
# runs), lookback_bulk_warp_vector_out (each warp its own run so), lookback_bulk_ballot and
# lookback_bulk_ballot_vector_out, paired over cub in the same rounds, keep99 and keep50 at
# 2^21-2^25; --check-plugin on them and lab/device/write_out_check.cu
# (the kernels on inputs --check-plugin does not make); and Nsight Compute over cub's
# compaction, lookback_bulk and lookback_bulk_vector_out with 99 % kept at 2^23 (caches flushed,
# clocks fixed), so that the kernels' own times and where their warps wait are seen side by side.
# Packs the profiles into write-out.tgz beside the run's .json and .txt and check.txt.
#   PLUGBENCH_SOURCE_COMMIT=<hash> [PROFILE=0] [SIZES=...] [DISTRIBUTIONS=...] \
#     lab/device/write_out_batch.sh
# Before shipping VectorWriteOut, every size and distribution (a few minutes of device time):
#   SIZES=2^16,2^18,2^20,2^22,2^23,2^24,2^26,2^28 DISTRIBUTIONS=all PROFILE=0 HARNESS_TIMEOUT=400 ...
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
: "${OUT:=/tmp/plugbench_device_out}"
export OUT
mkdir -p "$OUT"
nvidia-smi -L
date -u
export PLUGBENCH_TUNINGS=ON
export PLUGBENCH_BUILD_TARGETS="harness plugbench_plugin_cuda_optimized plugbench_plugin_cub"
tunings=lookback_bulk_vector_out,lookback_bulk_warp_vector_out,lookback_bulk_ballot,lookback_bulk_ballot_vector_out
PLUGBENCH_HARNESS_TIMEOUT="${HARNESS_TIMEOUT:-200}" tools/device_run.sh harness write-out -p cub,cuda_optimized \
  -w compact -d "${DISTRIBUTIONS:-keep99,keep50}" -s "${SIZES:-2^21,2^22,2^23,2^24,2^25}" \
  -v "all,$tunings" \
  --baseline cub/library
export PLUGBENCH_SKIP_BUILD=1  # the later stages use the build above
timeout 120 build-device/bin/harness --check-plugin \
  build-device/bin/plugins/libplugbench_cuda_optimized.so -w compact -v "lookback_bulk,$tunings" \
  >"$OUT/check.txt" 2>&1
echo "check-plugin exit code: $?"
tail -2 "$OUT/check.txt"
# Both packs and both write-outs on inputs --check-plugin does not make: every item kept, none,
# whole warps on and off, and an output that starts 0-3 words past a 16-byte boundary.
nvcc -O3 -std=c++20 -arch=sm_90 -Iplugins/cuda_optimized -Iharness/include \
  lab/device/write_out_check.cu -o /tmp/write_out_check >"$OUT/write-out-check.txt" 2>&1 &&
  timeout 120 /tmp/write_out_check >>"$OUT/write-out-check.txt" 2>&1
echo "write_out_check exit code: $?"
tail -1 "$OUT/write-out-check.txt"
profile() {  # profile NAME PLUGIN KERNEL-FILTER VARIANT: its compaction, 99 % kept at 2^23
  PLUGBENCH_NCU_TIMEOUT=90 PLUGBENCH_NCU_LAUNCHES=6 PLUGBENCH_NCU_KERNELS="$3" \
    PLUGBENCH_NCU_SECTIONS="LaunchStats Occupancy SpeedOfLight WarpStateStats SchedulerStats MemoryWorkloadAnalysis" \
    tools/device_run.sh ncu "$1" -p "$2" -w compact -d keep99 -s 2^23 -v "$4"
}
if [[ "${PROFILE:-1}" != 0 ]]; then  # PROFILE=0: no profiles, when device time is short
  profile ncu-cub-keep99-2p23 cub "regex:DeviceSelect|DeviceCompact" library
  profile ncu-bulk-keep99-2p23 cuda_optimized "regex:compact_kernel" lookback_bulk
  profile ncu-vector-out-keep99-2p23 cuda_optimized "regex:compact_kernel" lookback_bulk_vector_out
fi
date -u
cd "$OUT" && rm -f ./*.ncu-rep configure.log nvidia-smi.txt ./ncu-*[0-9].csv &&
  tar czf /tmp/write-out.tgz . && mv /tmp/write-out.tgz . &&
  find . -maxdepth 1 -type f ! -name write-out.tgz ! -name "write-out.json" ! -name "write-out.txt" \
    ! -name check.txt ! -name write-out-check.txt -delete
ls -la
