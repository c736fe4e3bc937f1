// scan.cu: exclusive int32 prefix sums with thrust::exclusive_scan. The data are viewed as uint32
// so that the sums wrap modulo 2^32 with defined behaviour (the bits are those of the int32 sums).
#include "thrust_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <thrust/device_ptr.h>
#include <thrust/scan.h>

#include <cstdint>

namespace plugbench::thrust_plugin {
namespace {

void scan_library(sdk::Call& call) {
  if (call.n() == 0) return;
  auto policy = session_policy(call);
  const auto in =
      thrust::device_pointer_cast(reinterpret_cast<const uint32_t*>(call.input<int32_t>(0)));
  const auto out =
      thrust::device_pointer_cast(reinterpret_cast<uint32_t*>(call.output<int32_t>(0)));
  thrust::exclusive_scan(policy, in, in + call.n(), out);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "library",
                  .description = "thrust::exclusive_scan",
                  .run = scan_library,
                  .flags = PB_KERNEL_ALLOCATES});

}  // namespace plugbench::thrust_plugin
