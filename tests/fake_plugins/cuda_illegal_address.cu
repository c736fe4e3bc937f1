// cuda_illegal_address.cu: a test plugin whose reduce kernel writes through a bad device pointer,
// which leaves the CUDA context with a sticky cudaErrorIllegalAddress; a correct kernel declared
// after it shows that the next cell runs in a fresh worker
// (tests/harness/test_fault_isolation.cpp).
#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

namespace {

__global__ void write_through_bad_pointer(unsigned long long* bad) {
  bad[threadIdx.x] = 42;
}

__global__ void sum_with_atomics(const int32_t* in, uint64_t n, unsigned long long* total) {
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, static_cast<unsigned long long>(static_cast<long long>(in[i])));
}

void reduce_illegal_address(plugbench::sdk::Call& call) {
  cudaStream_t stream = call.session<plugbench::cuda::CudaServices>().stream();
  // Far outside any allocation: the kernel faults, and the context is lost for this process.
  auto* bad = reinterpret_cast<unsigned long long*>(std::uintptr_t{0xdead0000});
  write_through_bad_pointer<<<1, 32, 0, stream>>>(bad);
  PB_CUDA_CHECK_LAUNCH();
}

void reduce_good_atomic(plugbench::sdk::Call& call) {
  cudaStream_t stream = call.session<plugbench::cuda::CudaServices>().stream();
  auto* total = reinterpret_cast<unsigned long long*>(call.output<int64_t>(0));
  PB_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(*total), stream));
  if (call.n() == 0) return;
  const unsigned blocks = plugbench::cuda::exact_grid(call.n(), 256);
  sum_with_atomics<<<blocks, 256, 0, stream>>>(call.input<int32_t>(0), call.n(), total);
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "illegal_address",
                  .description = "writes through a bad device pointer",
                  .run = reduce_illegal_address});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "good_atomic",
                  .description = "correct: one atomicAdd per element",
                  .run = reduce_good_atomic});

PLUGBENCH_PLUGIN(plugbench::cuda::CudaServices,
                 {.name = "cuda_illegal_address",
                  .version = "0.0.1",
                  .description = "a test plugin whose kernel faults on the device",
                  .memory_space = PB_MEMORY_DEVICE,
                  .build_info = plugbench::cuda::cuda_build_info()});
