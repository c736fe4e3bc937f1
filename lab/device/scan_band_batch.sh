#!/usr/bin/env bash
# scan_band_batch.sh: issue #38's sizes where cub leads the scan and the compaction (2^23 items;
# lab/performance-log.md), in one device call (a tunings build, about 5 minutes):
#   the shipped lookback_bulk beside half its items a wave (lookback_bulk_256x16), the same waves
#   in 4096-item tiles (lookback_bulk_128x32), its look-back tunings (lookback_bulk_spin,
#   lookback_bulk_window64) and cub at 2^21-2^25, paired over cub in the same rounds;
#   --check-plugin on the tunings; Nsight Compute on cub's scan and on lookback_bulk at 2^23
#   (every kernel of a call: cub's init kernel too; the workspace clear is a memset, no kernel),
#   to see what cub does differently there.
# Packs what it made into scan-band.tgz beside the run's .json and .txt (the device tool brings
# back 8 files).
#   PLUGBENCH_SOURCE_COMMIT=<hash> lab/device/scan_band_batch.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
: "${OUT:=/tmp/plugbench_device_out}"
export OUT
mkdir -p "$OUT"
nvidia-smi -L
date -u
export PLUGBENCH_TUNINGS=ON
export PLUGBENCH_BUILD_TARGETS="harness plugbench_plugin_cuda_optimized plugbench_plugin_cub"
tunings=lookback_bulk_256x16,lookback_bulk_spin,lookback_bulk_window64,lookback_bulk_128x32
PLUGBENCH_HARNESS_TIMEOUT=200 tools/device_run.sh harness scan-band -p cub,cuda_optimized \
  -w scan,compact -d small,keep50,keep99 -s 2^21,2^22,2^23,2^24,2^25 -v "all,$tunings" \
  --baseline cub/library
timeout 240 build-device/bin/harness --check-plugin \
  build-device/bin/plugins/libplugbench_cuda_optimized.so -w scan,compact -v "$tunings" \
  >"$OUT/check.txt" 2>&1
echo "check-plugin exit code: $?"
tail -2 "$OUT/check.txt"
profile() {  # profile NAME PLUGIN KERNEL-FILTER VARIANT: the plugin's scan at 2^23, its kernels
  PLUGBENCH_NCU_TIMEOUT=90 PLUGBENCH_NCU_LAUNCHES=6 PLUGBENCH_NCU_KERNELS="$3" \
    PLUGBENCH_NCU_SECTIONS="LaunchStats Occupancy SpeedOfLight WarpStateStats SchedulerStats MemoryWorkloadAnalysis" \
    tools/device_run.sh ncu "$1" -p "$2" -w scan -d small -s 2^23 -v "$4"
}
profile ncu-cub-scan-2p23 cub "regex:DeviceScan" library
profile ncu-bulk-scan-2p23 cuda_optimized "regex:scan_kernel" lookback_bulk
date -u
cd "$OUT" && rm -f ./*.ncu-rep configure.log nvidia-smi.txt ./ncu-*[0-9].csv &&
  tar czf /tmp/scan-band.tgz . && mv /tmp/scan-band.tgz . &&
  find . -maxdepth 1 -type f ! -name scan-band.tgz ! -name "scan-band.json" ! -name "scan-band.txt" \
    ! -name check.txt -delete
