// dot.cu: float dot product with thrust::inner_product and a float initial value: Thrust's tree
// reduction in float; the returned float is written to the double output on the stream.
#include "thrust_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <thrust/device_ptr.h>
#include <thrust/fill.h>
#include <thrust/inner_product.h>

namespace plugbench::thrust_plugin {
namespace {

void dot_library(sdk::Call& call) {
  auto policy = session_policy(call);
  const auto x = thrust::device_pointer_cast(call.input<float>(0));
  const auto y = thrust::device_pointer_cast(call.input<float>(1));
  const auto dot = thrust::device_pointer_cast(call.output<double>(0));
  const float result = thrust::inner_product(policy, x, x + call.n(), y, 0.0f);
  thrust::fill_n(policy, dot, 1, static_cast<double>(result));
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "library",
                  .description = "thrust::inner_product in float; returns the result to the host",
                  .run = dot_library,
                  .flags = PB_KERNEL_SYNCHRONIZES_HOST | PB_KERNEL_ALLOCATES});

}  // namespace plugbench::thrust_plugin
