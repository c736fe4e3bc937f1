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
source "$(dirname "$0")/beside_cub.sh"
tunings=lookback_bulk_256x16,lookback_bulk_spin,lookback_bulk_window64,lookback_bulk_128x32
run_beside_cub scan-band 200 -w scan,compact -d small,keep50,keep99 -s 2^21,2^22,2^23,2^24,2^25 \
  -v "all,$tunings"
check_variants 240 -w scan,compact -v "$tunings"
profile ncu-cub-scan-2p23 cub "regex:DeviceScan" -w scan -d small -s 2^23 -v library
profile ncu-bulk-scan-2p23 cuda_optimized "regex:scan_kernel" -w scan -d small -s 2^23 \
  -v lookback_bulk
date -u
cd "$OUT" && rm -f ./*.ncu-rep configure.log nvidia-smi.txt ./ncu-*[0-9].csv &&
  tar czf /tmp/scan-band.tgz . && mv /tmp/scan-band.tgz . &&
  find . -maxdepth 1 -type f ! -name scan-band.tgz ! -name "scan-band.json" ! -name "scan-band.txt" \
    ! -name check.txt -delete
