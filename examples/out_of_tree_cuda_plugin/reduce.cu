// reduce.cu (example_cuda): the sum of n int32 values as int64 with a grid-stride loop, a sum per
// warp by shuffles, and one 64-bit atomicAdd per warp into the output.
#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>

#include <cstdint>

namespace {

using plugbench::cuda::CudaServices;

constexpr unsigned kThreads = 256;

__global__ void reduce_kernel(const int32_t* x, uint64_t n, unsigned long long* sum) {
  long long thread_sum = 0;
  for (uint64_t i = plugbench::cuda::global_thread_index(); i < n;
       i += plugbench::cuda::grid_stride()) {
    thread_sum += x[i];
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    thread_sum += __shfl_down_sync(0xffffffffu, thread_sum, offset);
  }
  // Unsigned atomics wrap modulo 2^64, which is two's complement int64 addition.
  if (threadIdx.x % 32 == 0) atomicAdd(sum, static_cast<unsigned long long>(thread_sum));
}

// Inputs: int32 x[n]. Outputs: int64 sum[1]. Only enqueues: the harness times and waits.
void reduce_warp_atomics(plugbench::sdk::Call& call) {
  CudaServices& cuda = call.session<CudaServices>();
  auto* sum = call.output<int64_t>(0);
  // Zeroed first on the session's stream: the answer for n = 0, and the start of the sum.
  PB_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(int64_t), cuda.stream()));
  // Enough blocks to fill the GPU; the grid-stride loop covers the rest.
  const unsigned blocks = plugbench::cuda::grid_for(
      call.n(), kThreads, 8 * static_cast<uint64_t>(cuda.properties().multiProcessorCount));
  if (blocks == 0) return;
  reduce_kernel<<<blocks, kThreads, 0, cuda.stream()>>>(call.input<int32_t>(0), call.n(),
                                                        reinterpret_cast<unsigned long long*>(sum));
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "warp_atomics",
                  .description = "grid-stride loop, warp shuffles, one atomicAdd per warp",
                  .run = reduce_warp_atomics});
