// dot.cu: float dot product as in the seed's exercise: each block reduces its products in a
// shared-memory tree to one float partial sum; the host adds the partial sums in double.
#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include "block_threads.cuh"

#include <cstdint>

namespace {

using plugbench::cuda_naive::kThreads;
constexpr uint64_t kPerBlock = 2 * kThreads;  // each thread multiplies two pairs while loading

__global__ void dot_block_tree_kernel(const float* x, const float* y, uint64_t n, float* partials) {
  __shared__ float cache[kThreads];
  const unsigned tid = threadIdx.x;
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * kPerBlock + tid;
  float sum = i < n ? x[i] * y[i] : 0.0f;
  if (i + kThreads < n) sum += x[i + kThreads] * y[i + kThreads];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned step = kThreads / 2; step > 0; step /= 2) {
    if (tid < step) cache[tid] += cache[tid + step];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = cache[0];
}

// Pinned host memory for the partial sums and the final double, kept for the session and grown
// when a larger problem needs more (the only allocation, on the first call at a size).
class HostPartials {
 public:
  explicit HostPartials(plugbench::cuda::CudaServices&) {}
  HostPartials(const HostPartials&) = delete;
  HostPartials& operator=(const HostPartials&) = delete;
  ~HostPartials() {
    if (memory_ != nullptr) (void)cudaFreeHost(memory_);
  }

  void reserve(uint64_t partial_count) {
    if (partial_count <= capacity_) return;
    if (memory_ != nullptr) PB_CUDA_CHECK(cudaFreeHost(memory_));
    memory_ = nullptr;
    capacity_ = 0;
    PB_CUDA_CHECK(cudaMallocHost(&memory_, sizeof(double) + partial_count * sizeof(float)));
    capacity_ = partial_count;
  }
  double* total() const { return static_cast<double*>(memory_); }
  float* partials() const {
    return reinterpret_cast<float*>(static_cast<unsigned char*>(memory_) + sizeof(double));
  }

 private:
  void* memory_ = nullptr;
  uint64_t capacity_ = 0;
};

uint64_t dot_block_tree_workspace(void*, const pb_problem& problem) {
  return plugbench::cuda::ceil_div(problem.n, kPerBlock) * sizeof(float);
}

void dot_block_tree(plugbench::sdk::Call& call) {
  auto& session = call.session<plugbench::cuda::CudaServices>();
  cudaStream_t stream = session.stream();
  const uint64_t n = call.n();
  double* dot = call.output<double>(0);
  if (n == 0) {
    PB_CUDA_CHECK(cudaMemsetAsync(dot, 0, sizeof(double), stream));  // +0.0 is all zero bits
    return;
  }
  const unsigned blocks = plugbench::cuda::exact_grid(n, kPerBlock);
  float* d_partials = call.workspace<float>();
  dot_block_tree_kernel<<<blocks, kThreads, 0, stream>>>(call.input<float>(0), call.input<float>(1),
                                                         n, d_partials);
  PB_CUDA_CHECK_LAUNCH();

  HostPartials& host = session.state<HostPartials>();
  host.reserve(blocks);
  PB_CUDA_CHECK(cudaMemcpyAsync(host.partials(), d_partials, blocks * sizeof(float),
                                cudaMemcpyDeviceToHost, stream));
  PB_CUDA_CHECK(cudaStreamSynchronize(stream));
  double total = 0.0;
  for (unsigned b = 0; b < blocks; ++b) total += host.partials()[b];
  *host.total() = total;
  PB_CUDA_CHECK(cudaMemcpyAsync(dot, host.total(), sizeof(double), cudaMemcpyHostToDevice, stream));
  PB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "block_tree",
                  .description = "shared-memory tree of float products per block; the host "
                                 "adds the per-block sums in double",
                  .run = dot_block_tree,
                  .flags = PB_KERNEL_SYNCHRONIZES_HOST | PB_KERNEL_ALLOCATES,
                  .workspace = dot_block_tree_workspace});
