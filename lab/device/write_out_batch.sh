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
source "$(dirname "$0")/beside_cub.sh"
tunings=lookback_bulk_vector_out,lookback_bulk_warp_vector_out,lookback_bulk_ballot
tunings+=,lookback_bulk_ballot_vector_out
run_beside_cub write-out "${HARNESS_TIMEOUT:-200}" -w compact -d "${DISTRIBUTIONS:-keep99,keep50}" \
  -s "${SIZES:-2^21,2^22,2^23,2^24,2^25}" -v "all,$tunings"
check_variants 120 -w compact -v "lookback_bulk,$tunings"
# Both packs and every write-out on inputs --check-plugin does not make: every item kept, none,
# whole warps on and off, and an output that starts 0-3 words past a 16-byte boundary.
nvcc -O3 -std=c++20 -arch=sm_90 -Iplugins/cuda_optimized -Iharness/include \
  lab/device/write_out_check.cu -o /tmp/write_out_check >"$OUT/write-out-check.txt" 2>&1 &&
  timeout 120 /tmp/write_out_check >>"$OUT/write-out-check.txt" 2>&1
echo "write_out_check exit code: $?"
tail -1 "$OUT/write-out-check.txt"
if [[ "${PROFILE:-1}" != 0 ]]; then  # PROFILE=0: no profiles, when device time is short
  keep99=(-w compact -d keep99 -s 2^23)
  profile ncu-cub-keep99-2p23 cub "regex:DeviceSelect|DeviceCompact" "${keep99[@]}" -v library
  profile ncu-bulk-keep99-2p23 cuda_optimized "regex:compact_kernel" "${keep99[@]}" -v lookback_bulk
  profile ncu-vector-out-keep99-2p23 cuda_optimized "regex:compact_kernel" "${keep99[@]}" \
    -v lookback_bulk_vector_out
fi
date -u
cd "$OUT" && rm -f ./*.ncu-rep configure.log nvidia-smi.txt ./ncu-*[0-9].csv &&
  tar czf /tmp/write-out.tgz . && mv /tmp/write-out.tgz . &&
  find . -maxdepth 1 -type f ! -name write-out.tgz ! -name "write-out.json" ! -name "write-out.txt" \
    ! -name check.txt ! -name write-out-check.txt -delete
ls -la
