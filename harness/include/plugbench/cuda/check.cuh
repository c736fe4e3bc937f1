// plugbench/cuda/check.cuh: turns a failed CUDA runtime call into a plugbench::sdk::Failure that
// names the call, where it was made, and CUDA's own name and words for the error.
#pragma once

#include <plugbench/plugin_sdk.hpp>

#include <cuda_runtime.h>

#include <cstring>
#include <string>

#pragma GCC visibility push(hidden)

namespace plugbench::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* expression,
                                          const char* file, int line) {
  // Clear the (non-sticky) error so that the next launch check does not report it a second time.
  (void)cudaGetLastError();
  const char* slash = std::strrchr(file, '/');
  std::string message = std::string(expression) + " failed at " + (slash ? slash + 1 : file) + ":" +
                        std::to_string(line) + ": " + cudaGetErrorName(status) + ": " +
                        cudaGetErrorString(status);
  throw sdk::Failure(status == cudaErrorMemoryAllocation ? PB_OUT_OF_MEMORY : PB_ERROR, message);
}

inline void check_cuda(cudaError_t status, const char* expression, const char* file, int line) {
  if (status != cudaSuccess) throw_cuda_error(status, expression, file, line);
}

}  // namespace plugbench::cuda

#pragma GCC visibility pop

// Throws plugbench::sdk::Failure when a CUDA runtime call fails (PB_OUT_OF_MEMORY for
// cudaErrorMemoryAllocation, PB_ERROR otherwise).
#define PB_CUDA_CHECK(expr) ::plugbench::cuda::check_cuda((expr), #expr, __FILE__, __LINE__)

// Checks the launch just made (configuration, resources); errors inside the kernel surface later,
// at the next synchronization (timer_stop, sync).
#define PB_CUDA_CHECK_LAUNCH() \
  ::plugbench::cuda::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
