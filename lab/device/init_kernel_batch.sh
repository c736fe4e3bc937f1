#!/usr/bin/env bash
# init_kernel_batch.sh: issue #38's band where cub leads the scan and the compaction (2^21-2^25),
# one device call (a tunings build): the shipped lookback_bulk (its look-back words cleared by a
# cudaMemsetAsync) beside lookback_bulk_init_kernel (the same tile, the words cleared by a kernel
# of its own, as cub does) and lookback_bulk_128x24 (cub's sm_90 tile, 128 x 24 items at 8 blocks
# an SM, in the bulk kernel), paired over cub in the same rounds; --check-plugin on them and on the
# shipped lookback_bulk. (Nsight Systems, which would show the memset itself, is not on the GPU
# machine.)
#   PLUGBENCH_SOURCE_COMMIT=<hash> lab/device/init_kernel_batch.sh
source "$(dirname "$0")/beside_cub.sh"
tunings=lookback_bulk_init_kernel,lookback_bulk_128x24
run_beside_cub init-kernel 200 -w scan,compact -d small,keep50,keep99 \
  -s 2^21,2^22,2^23,2^24,2^25 -v "all,$tunings"
check_variants 200 -w scan,compact -v "lookback_bulk,$tunings"
date -u
rm -f "$OUT/configure.log"
ls -la "$OUT"
