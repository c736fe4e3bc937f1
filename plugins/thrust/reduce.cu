// reduce.cu: int32 -> int64 sum with thrust::reduce and an int64 initial value (which makes Thrust
// accumulate in int64); the returned value is written to the output on the stream.
#include "thrust_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <thrust/device_ptr.h>
#include <thrust/fill.h>
#include <thrust/reduce.h>

#include <cstdint>

namespace plugbench::thrust_plugin {
namespace {

void reduce_library(sdk::Call& call) {
  auto policy = session_policy(call);
  const auto in = thrust::device_pointer_cast(call.input<int32_t>(0));
  const auto sum = thrust::device_pointer_cast(call.output<int64_t>(0));
  const int64_t total = thrust::reduce(policy, in, in + call.n(), int64_t{0});
  thrust::fill_n(policy, sum, 1, total);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "library",
                  .description = "thrust::reduce with an int64 initial value; returns the sum "
                                 "to the host",
                  .run = reduce_library,
                  .flags = PB_KERNEL_SYNCHRONIZES_HOST | PB_KERNEL_ALLOCATES});

}  // namespace plugbench::thrust_plugin
