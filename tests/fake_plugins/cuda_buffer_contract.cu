// cuda_buffer_contract.cu: the buffer-contract breaches of buffer_contract_plugin.cpp on a real
// GPU, in device memory the harness allocates through the CUDA services: a sort that sorts its keys
// in place, a reduce that zeroes its input, reduces that write 1 and 4096 bytes past their output,
// and honest kernels (tests/harness/test_buffer_contract.cpp).
#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <cstdint>

namespace {

using plugbench::cuda::CudaServices;
using plugbench::sdk::Call;

__global__ void sum_with_atomics(const int32_t* in, uint64_t n, unsigned long long* total) {
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, static_cast<unsigned long long>(static_cast<long long>(in[i])));
}

__global__ void zero(int32_t* x, uint64_t n) {
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0;
}

cudaStream_t stream_of(Call& call) {
  return call.session<CudaServices>().stream();
}

void reduce_honest(Call& call) {
  auto* total = reinterpret_cast<unsigned long long*>(call.output<int64_t>(0));
  PB_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(*total), stream_of(call)));
  if (call.n() == 0) return;
  const unsigned blocks = plugbench::cuda::exact_grid(call.n(), 256);
  sum_with_atomics<<<blocks, 256, 0, stream_of(call)>>>(call.input<int32_t>(0), call.n(), total);
  PB_CUDA_CHECK_LAUNCH();
}

// The right sum, then `past` zero bytes after it (the harness's guard never holds a zero byte).
template <size_t past>
void reduce_overrunning(Call& call) {
  reduce_honest(call);
  PB_CUDA_CHECK(cudaMemsetAsync(call.output<int64_t>(0) + 1, 0, past, stream_of(call)));
}

// The right sum, then every element of the input zeroed.
void reduce_zeroing_input(Call& call) {
  reduce_honest(call);
  if (call.n() == 0) return;
  const unsigned blocks = plugbench::cuda::exact_grid(call.n(), 256);
  zero<<<blocks, 256, 0, stream_of(call)>>>(const_cast<int32_t*>(call.input<int32_t>(0)), call.n());
  PB_CUDA_CHECK_LAUNCH();
}

// Sorts the keys where they lie, then copies them out: right, and fast, but the input is gone.
void sort_in_place(Call& call) {
  auto* keys = const_cast<uint32_t*>(call.input<uint32_t>(0));
  thrust::sort(thrust::cuda::par.on(stream_of(call)), keys, keys + call.n());
  PB_CUDA_CHECK(cudaMemcpyAsync(call.output<uint32_t>(0), keys, call.n() * sizeof(uint32_t),
                                cudaMemcpyDeviceToDevice, stream_of(call)));
}

void sort_honest(Call& call) {
  uint32_t* sorted = call.output<uint32_t>(0);
  PB_CUDA_CHECK(cudaMemcpyAsync(sorted, call.input<uint32_t>(0), call.n() * sizeof(uint32_t),
                                cudaMemcpyDeviceToDevice, stream_of(call)));
  thrust::sort(thrust::cuda::par.on(stream_of(call)), sorted, sorted + call.n());
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "overruns_1_byte",
                  .description = "writes 1 byte past its output",
                  .run = reduce_overrunning<1>});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "overruns_4096_bytes",
                  .description = "writes 4096 bytes past its output",
                  .run = reduce_overrunning<4096>});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "zeroes_its_input",
                  .description = "zeroes its input after summing it",
                  .run = reduce_zeroing_input});
PLUGBENCH_KERNEL(
    {.workload = "reduce", .variant = "honest", .description = "correct", .run = reduce_honest});
PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "sorts_input_in_place",
                  .description = "sorts its input, then copies it out",
                  .run = sort_in_place,
                  .flags = PB_KERNEL_SYNCHRONIZES_HOST | PB_KERNEL_ALLOCATES});
PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "honest",
                  .description = "correct",
                  .run = sort_honest,
                  .flags = PB_KERNEL_SYNCHRONIZES_HOST | PB_KERNEL_ALLOCATES});

PLUGBENCH_PLUGIN(CudaServices, {.name = "cuda_buffer_contract",
                                .version = "0.0.1",
                                .description = "breaks the buffer contract on the GPU",
                                .memory_space = PB_MEMORY_DEVICE,
                                .build_info = plugbench::cuda::cuda_build_info()});
