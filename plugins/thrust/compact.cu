// compact.cu: keep the nonzero int32 in order with thrust::copy_if; the count comes from the
// returned end iterator (Thrust reads it back, so the host waits) and is written on the stream.
#include "thrust_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/fill.h>

#include <cstdint>

namespace plugbench::thrust_plugin {
namespace {

struct NonZero {
  __host__ __device__ bool operator()(int32_t value) const { return value != 0; }
};

void compact_library(sdk::Call& call) {
  auto policy = session_policy(call);
  const auto in = thrust::device_pointer_cast(call.input<int32_t>(0));
  const auto kept = thrust::device_pointer_cast(call.output<int32_t>(0));
  const auto count = thrust::device_pointer_cast(call.output<uint64_t>(1));
  uint64_t selected = 0;
  if (call.n() > 0) {
    const auto end = thrust::copy_if(policy, in, in + call.n(), kept, NonZero{});
    selected = static_cast<uint64_t>(end - kept);
  }
  thrust::fill_n(policy, count, 1, selected);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "library",
                  .description = "thrust::copy_if with a nonzero predicate; the count comes back "
                                 "to the host",
                  .run = compact_library,
                  .flags = PB_KERNEL_SYNCHRONIZES_HOST | PB_KERNEL_ALLOCATES});

}  // namespace plugbench::thrust_plugin
