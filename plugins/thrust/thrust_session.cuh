// thrust_session.cuh: how this plugin calls Thrust: on the session's stream, without the
// synchronizations Thrust may skip, with temporary storage from the session's cache. Thrust lives
// in this plugin's own namespace (THRUST_CUB_WRAPPED_NAMESPACE); `thrust` here names it.
#pragma once

#include "caching_allocator.cuh"

#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <thrust/execution_policy.h>

#pragma GCC visibility push(hidden)

namespace plugbench::thrust_plugin {

namespace thrust = THRUST_NS_QUALIFIER;

inline auto session_policy(sdk::Call& call) {
  auto& session = call.session<cuda::CudaServices>();
  return thrust::cuda::par_nosync(session.state<CachingAllocator>()).on(session.stream());
}

}  // namespace plugbench::thrust_plugin

#pragma GCC visibility pop
