// cub_session.cuh: how this plugin calls CUB's device-wide algorithms: the two-phase temporary
// storage protocol split across the kernel's workspace function (the size query, outside the
// timed region) and its run (the call, on the session's stream, in the harness's workspace).
// CUB lives in this plugin's own namespace (THRUST_CUB_WRAPPED_NAMESPACE); `cub` here names it.
#pragma once

#include <plugbench/cuda/check.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <cuda_runtime.h>
#include <cub/config.cuh>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#pragma GCC visibility push(hidden)

namespace plugbench::cub_plugin {

namespace cub = CUB_NS_QUALIFIER;

// CUB picks 32-bit offsets for a 32-bit item count (faster); the kernels accept n up to
// UINT32_MAX (their max_n) and pass it as uint32_t.
inline constexpr uint64_t kMaxItems = UINT32_MAX;

inline uint32_t item_count(uint64_t n) {
  if (n > kMaxItems) {
    throw sdk::unsupported("n = " + std::to_string(n) + " exceeds this kernel's 32-bit item count");
  }
  return static_cast<uint32_t>(n);
}

// The bytes of temporary storage `algorithm` (called with a null storage pointer) asks for; at
// least 1, so that the run gets a non-null pointer (a null one would make CUB only query again).
template <class Algorithm>
uint64_t query_temp_storage(void* session, const char* name, Algorithm&& algorithm) {
  auto& services = *static_cast<cuda::CudaServices*>(session);
  services.make_current();
  size_t bytes = 0;
  cuda::check_cuda(algorithm(nullptr, bytes, services.stream()), name, __FILE__, __LINE__);
  return bytes == 0 ? 1 : bytes;
}

// Runs `algorithm` in the workspace the harness allocated from the query's answer, from `offset`
// on (the bytes before it hold the kernel's own scratch). CUB itself rejects a short workspace.
template <class Algorithm>
void run_with_temp_storage(sdk::Call& call, const char* name, Algorithm&& algorithm,
                           uint64_t offset = 0) {
  auto* storage = call.workspace<unsigned char>();
  if (storage == nullptr || call.workspace_bytes() <= offset) {
    throw sdk::Failure(PB_ERROR, std::string(name) + ": no workspace, or less than it asked for");
  }
  size_t bytes = call.workspace_bytes() - offset;
  cuda::check_cuda(algorithm(storage + offset, bytes, call.session<cuda::CudaServices>().stream()),
                   name, __FILE__, __LINE__);
}

}  // namespace plugbench::cub_plugin

#pragma GCC visibility pop
