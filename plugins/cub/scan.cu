// scan.cu: exclusive int32 prefix sums with cub::DeviceScan::ExclusiveSum. The data are viewed as
// uint32 so that the sums wrap modulo 2^32 with defined behaviour (the bits of the int32 sums).
#include "cub_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <cub/device/device_scan.cuh>

#include <cstdint>

namespace plugbench::cub_plugin {
namespace {

cudaError_t device_scan(void* storage, size_t& bytes, const uint32_t* in, uint32_t* out, uint64_t n,
                        cudaStream_t stream) {
  return cub::DeviceScan::ExclusiveSum(storage, bytes, in, out, item_count(n), stream);
}

uint64_t scan_workspace(void* session, const pb_problem& problem) {
  if (problem.n == 0) return 0;
  return query_temp_storage(session, "cub::DeviceScan::ExclusiveSum",
                            [&](void* storage, size_t& bytes, cudaStream_t stream) {
                              return device_scan(storage, bytes, nullptr, nullptr, problem.n,
                                                 stream);
                            });
}

void scan_library(sdk::Call& call) {
  if (call.n() == 0) return;
  run_with_temp_storage(
      call, "cub::DeviceScan::ExclusiveSum",
      [&](void* storage, size_t& bytes, cudaStream_t stream) {
        return device_scan(storage, bytes,
                           reinterpret_cast<const uint32_t*>(call.input<int32_t>(0)),
                           reinterpret_cast<uint32_t*>(call.output<int32_t>(0)), call.n(), stream);
      });
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "library",
                  .description = "cub::DeviceScan::ExclusiveSum (decoupled look-back, one pass)",
                  .run = scan_library,
                  .workspace = scan_workspace,
                  .max_n = kMaxItems});

}  // namespace plugbench::cub_plugin
