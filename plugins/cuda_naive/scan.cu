// scan.cu: exclusive int32 prefix sums (modulo 2^32) as in the seed's course report:
// Hillis-Steele (log2 n steps, each adding the element `offset` places back, one launch per step)
// and Blelloch's work-efficient up-sweep / down-sweep on a power-of-two padded buffer.
#include "work_efficient_scan.cuh"

#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include "block_threads.cuh"

#include <cstdint>

namespace {

using plugbench::cuda_naive::kThreads;

using plugbench::cuda::global_thread_index;
using plugbench::cuda::grid_for;
using plugbench::cuda::grid_stride;

// Unsigned arithmetic throughout: the sums wrap modulo 2^32 with defined behaviour, and the bits
// are those of the int32 result.
__global__ void shift_right_kernel(const uint32_t* in, uint32_t* out, uint64_t n) {
  for (uint64_t i = global_thread_index(); i < n; i += grid_stride()) {
    out[i] = i == 0 ? 0u : in[i - 1];
  }
}

__global__ void hillis_steele_step_kernel(const uint32_t* in, uint32_t* out, uint64_t n,
                                          uint64_t offset) {
  for (uint64_t i = global_thread_index(); i < n; i += grid_stride()) {
    out[i] = i >= offset ? in[i] + in[i - offset] : in[i];
  }
}

__global__ void load_padded_kernel(const uint32_t* in, uint64_t n, uint32_t* buffer,
                                   uint64_t length) {
  for (uint64_t i = global_thread_index(); i < length; i += grid_stride()) {
    buffer[i] = i < n ? in[i] : 0u;
  }
}

uint64_t scan_naive_workspace(void*, const pb_problem& problem) {
  return problem.n * sizeof(uint32_t);
}

// The steps ping-pong between the output and the workspace; the shifted input starts in whichever
// of the two makes the last step land in the output.
void scan_naive(plugbench::sdk::Call& call) {
  cudaStream_t stream = call.session<plugbench::cuda::CudaServices>().stream();
  const uint64_t n = call.n();
  if (n == 0) return;
  const auto* in = reinterpret_cast<const uint32_t*>(call.input<int32_t>(0));
  auto* out = reinterpret_cast<uint32_t*>(call.output<int32_t>(0));
  auto* scratch = call.workspace<uint32_t>();
  unsigned steps = 0;
  for (uint64_t offset = 1; offset < n; offset *= 2) ++steps;
  const unsigned blocks = grid_for(n, kThreads);
  uint32_t* current = steps % 2 == 0 ? out : scratch;
  shift_right_kernel<<<blocks, kThreads, 0, stream>>>(in, current, n);
  PB_CUDA_CHECK_LAUNCH();
  for (uint64_t offset = 1; offset < n; offset *= 2) {
    uint32_t* next = current == out ? scratch : out;
    hillis_steele_step_kernel<<<blocks, kThreads, 0, stream>>>(current, next, n, offset);
    PB_CUDA_CHECK_LAUNCH();
    current = next;
  }
}

uint64_t scan_work_efficient_workspace(void*, const pb_problem& problem) {
  return plugbench::cuda_naive::padded_scan_length(problem.n) * sizeof(uint32_t);
}

void scan_work_efficient(plugbench::sdk::Call& call) {
  cudaStream_t stream = call.session<plugbench::cuda::CudaServices>().stream();
  const uint64_t n = call.n();
  if (n == 0) return;
  const uint64_t length = plugbench::cuda_naive::padded_scan_length(n);
  auto* buffer = call.workspace<uint32_t>();
  load_padded_kernel<<<grid_for(length, kThreads), kThreads, 0, stream>>>(
      reinterpret_cast<const uint32_t*>(call.input<int32_t>(0)), n, buffer, length);
  PB_CUDA_CHECK_LAUNCH();
  plugbench::cuda_naive::blelloch_scan_in_place(buffer, length, stream);
  PB_CUDA_CHECK(cudaMemcpyAsync(call.output<int32_t>(0), buffer, n * sizeof(uint32_t),
                                cudaMemcpyDeviceToDevice, stream));
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "naive",
                  .description = "Hillis-Steele: log2(n) launches, each adding the element "
                                 "2^d places back (O(n log n) additions)",
                  .run = scan_naive,
                  .workspace = scan_naive_workspace});
PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "work_efficient",
                  .description = "Blelloch up-sweep / down-sweep, one launch per tree level, on "
                                 "a power-of-two padded copy",
                  .run = scan_work_efficient,
                  .workspace = scan_work_efficient_workspace});
