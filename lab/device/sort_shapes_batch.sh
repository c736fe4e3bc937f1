#!/usr/bin/env bash
# sort_shapes_batch.sh: issue #38's sort tile shapes (tunings/sort_tunings.cu), one stage a device
# call (each well inside a call's 10 minutes; chain them on one warm machine):
#   measure: a tunings build of the harness, cuda_optimized and cub; the shapes beside the shipped
#            onesweep and cub at 2^16-2^28 on every sort distribution, cold; --check-plugin on each;
#   verify:  memcheck and racecheck over the sort at small sizes (every shape and the shipped
#            one), and Nsight Compute on 24x3 and 24x4 at 2^28 uniform;
#   sized:   onesweep (16x6 below half a wave of its tiles, 32x3 from four waves of those, 24x3
#            between) beside 24x3, 16x6, 32x3, 36x2 and cub at seven sizes from 2^16 to 2^28, four
#            distributions, speedups over 24x3; --check-plugin on it and 36x2 on both sides of its
#            switches, memcheck on it there;
#   quick:   what fits a call when little device time is left: onesweep beside 24x3 and cub at
#            seven sizes, uniform and equal keys; --check-plugin on onesweep at its switches
#            (1,622,016 and 12,976,128 keys on 132 SMs), memcheck there;
#   one:     the one call a session may get: onesweep, 32x3 and the 9216-key tiles beside 24x3
#            and cub at five sizes (2^16-2^28), uniform and equal keys; --check-plugin on them
#            around the switches, memcheck on them;
#   large:   the 9216-key tiles (36x3, 36x2) beside onesweep, 24x3, 32x3 and cub at 2^24-2^28,
#            four distributions, speedups over 24x3; --check-plugin on them.
# Each packs what it made into sort-shapes-STAGE.tgz and keeps the harness's files, the check and
# the sanitizer's log beside it (the device tool brings back 8 files).
#   PLUGBENCH_SOURCE_COMMIT=<hash> lab/device/sort_shapes_batch.sh measure|verify|sized|quick|one|large
set -uo pipefail
cd "$(dirname "$0")/../.."
stage="${1:-measure}"
: "${OUT:=/tmp/plugbench_device_out}"
export OUT
mkdir -p "$OUT"
nvidia-smi -L
date -u
shapes=onesweep_24x4,onesweep_20x4,onesweep_16x5,onesweep_16x6,onesweep_32x3
large_shapes=onesweep_36x3,onesweep_36x2
export PLUGBENCH_TUNINGS=ON
export PLUGBENCH_BUILD_TARGETS="harness plugbench_plugin_cuda_optimized plugbench_plugin_cub"
# --check-plugin on the tunings build's cuda_optimized: check VARIANTS [harness options...].
check() {
  build-device/bin/harness --check-plugin \
    build-device/bin/plugins/libplugbench_cuda_optimized.so -w sort -v "$@" >"$OUT/check.txt" 2>&1
  echo "check-plugin exit code: $?"
  tail -3 "$OUT/check.txt"
}
case "$stage" in
  measure)
    tools/device_run.sh harness sort-shapes -p cub,cuda_optimized -w sort -d all \
      -s 2^16,2^20,2^24,2^28 -v "all,onesweep_24x3,$shapes" --baseline cuda_optimized/onesweep_24x3
    check "onesweep,$shapes"
    ;;
  verify)
    PLUGBENCH_SANITIZE_TIMEOUT=150 tools/device_run.sh sanitize -p cuda_optimized -w sort -d all \
      -v "onesweep,onesweep_24x3,$shapes,$large_shapes"
    PLUGBENCH_NCU_LAUNCHES=8 PLUGBENCH_NCU_KERNELS="regex:onesweep_kernel" \
      PLUGBENCH_NCU_SECTIONS="LaunchStats Occupancy SpeedOfLight WarpStateStats SchedulerStats InstructionStats MemoryWorkloadAnalysis" \
      tools/device_run.sh ncu sort-shapes-ncu -p cuda_optimized -w sort -s 2^28 -d uniform \
      -v onesweep_24x3,onesweep_24x4
    ;;
  sized)
    tools/device_run.sh harness sort-sized -p cub,cuda_optimized -w sort -d uniform,sorted,equal,few \
      -s 2^16,2^20,2^21,2^22,2^23,2^24,2^28 \
      -v all,onesweep_24x3,onesweep_16x6,onesweep_32x3,onesweep_36x2 \
      --baseline cuda_optimized/onesweep_24x3
    # Its switch on 132 SMs is at 3,244,032 keys: both sides of it, as well as the awkward sizes.
    check onesweep,onesweep_36x2 -s 1622015,1622016,12976127,12976128
    PLUGBENCH_SANITIZE_TIMEOUT=120 PLUGBENCH_SANITIZE_TOOLS=memcheck \
      PLUGBENCH_SANITIZE_SIZES=1622016,12976128 tools/device_run.sh sanitize \
      -p cuda_optimized -w sort -d uniform,equal -v onesweep
    ;;
  quick)
    tools/device_run.sh harness sort-quick -p cuda_optimized,cub -w sort -d uniform,equal \
      -s 2^16,2^20,2^21,2^22,2^23,2^24,2^28 -v all,onesweep_24x3 \
      --baseline cuda_optimized/onesweep_24x3
    check onesweep -s 1622015,1622016,12976127,12976128
    PLUGBENCH_SANITIZE_TIMEOUT=120 PLUGBENCH_SANITIZE_TOOLS=memcheck \
      PLUGBENCH_SANITIZE_SIZES=1622016,12976128 tools/device_run.sh sanitize \
      -p cuda_optimized -w sort -d uniform -v onesweep
    ;;
  one)
    tools/device_run.sh harness sort-one -p cub,cuda_optimized -w sort -d uniform,equal \
      -s 2^16,2^20,2^22,2^24,2^28 -v "all,onesweep_24x3,onesweep_32x3,$large_shapes" \
      --baseline cuda_optimized/onesweep_24x3
    check "onesweep,$large_shapes" -s 1622015,1622016,12976127,12976128
    PLUGBENCH_SANITIZE_TIMEOUT=90 PLUGBENCH_SANITIZE_TOOLS=memcheck \
      PLUGBENCH_SANITIZE_SIZES=1622016 tools/device_run.sh sanitize \
      -p cuda_optimized -w sort -d uniform -v "onesweep,$large_shapes"
    ;;
  large)
    tools/device_run.sh harness sort-large -p cub,cuda_optimized -w sort -d uniform,sorted,equal,few \
      -s 2^24,2^26,2^28 -v "all,onesweep_24x3,onesweep_32x3,$large_shapes" \
      --baseline cuda_optimized/onesweep_24x3
    check "$large_shapes"
    ;;
  *) echo "usage: $0 measure|verify|sized|quick|one|large" >&2; exit 2 ;;
esac
date -u
cd "$OUT" && rm -f ./*.ncu-rep configure.log nvidia-smi.txt &&
  tar czf "/tmp/sort-shapes-$stage.tgz" . && mv "/tmp/sort-shapes-$stage.tgz" . &&
  find . -maxdepth 1 -type f ! -name "sort-shapes-*.tgz" ! -name "sort-*.json" \
    ! -name "sort-*.txt" ! -name check.txt ! -name sanitize.log -delete
