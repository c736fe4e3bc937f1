#!/usr/bin/env bash
# init_kernel_batch.sh: issue #38's band where cub leads the scan and the compaction (2^21-2^25),
# one device call (a tunings build): the shipped lookback_bulk (its look-back words cleared by a
# cudaMemsetAsync) beside lookback_bulk_init_kernel (the same tile, the words cleared by a kernel
# of its own, as cub does) and lookback_bulk_128x24 (cub's sm_90 tile, 128 x 24 items at 8 blocks
# an SM, in the bulk kernel), paired over cub in the same rounds; --check-plugin on them and on the
# shipped lookback_bulk. (Nsight Systems, which would show the memset itself, is not on the GPU
# machine.)
#   PLUGBENCH_SOURCE_COMMIT=<hash> lab/device/init_kernel_batch.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
: "${OUT:=/tmp/plugbench_device_out}"
export OUT
mkdir -p "$OUT"
nvidia-smi -L
date -u
export PLUGBENCH_TUNINGS=ON
export PLUGBENCH_BUILD_TARGETS="harness plugbench_plugin_cuda_optimized plugbench_plugin_cub"
tunings=lookback_bulk_init_kernel,lookback_bulk_128x24
PLUGBENCH_HARNESS_TIMEOUT=200 tools/device_run.sh harness init-kernel -p cub,cuda_optimized \
  -w scan,compact -d small,keep50,keep99 -s 2^21,2^22,2^23,2^24,2^25 -v "all,$tunings" \
  --baseline cub/library
timeout 200 build-device/bin/harness --check-plugin \
  build-device/bin/plugins/libplugbench_cuda_optimized.so -w scan,compact \
  -v "lookback_bulk,$tunings" \
  >"$OUT/check.txt" 2>&1
echo "check-plugin exit code: $?"
tail -2 "$OUT/check.txt"
date -u
rm -f "$OUT/configure.log"
ls -la "$OUT"
