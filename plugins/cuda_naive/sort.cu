// sort.cu: uint32 radix sort built on the scan, as in the seed's course report: 32 passes of one
// bit each (split: keys with the bit clear keep their order at the front, then those with it set),
// each pass a map, a Blelloch scan and a scatter; keys ping-pong between workspace and output.
#include "work_efficient_scan.cuh"

#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include "block_threads.cuh"

#include <cstdint>

namespace {

using plugbench::cuda_naive::kThreads;
constexpr unsigned kKeyBits = 32;

using plugbench::cuda::align_up;
using plugbench::cuda::global_thread_index;
using plugbench::cuda::grid_for;
using plugbench::cuda::grid_stride;

// Map: 1 where the key's bit is clear (it goes to the front), 0 elsewhere and in the padding.
__global__ void map_bit_clear_kernel(const uint32_t* keys, uint64_t n, unsigned bit,
                                     uint32_t* flags, uint64_t length) {
  for (uint64_t i = global_thread_index(); i < length; i += grid_stride()) {
    flags[i] = i < n && ((keys[i] >> bit) & 1u) == 0 ? 1u : 0u;
  }
}

// Scatter: a clear key goes to its position among the clear keys; a set key goes after all clear
// keys, at its position among the set keys (i minus the clear keys before it).
__global__ void split_scatter_kernel(const uint32_t* keys, uint64_t n, unsigned bit,
                                     const uint32_t* positions, uint32_t* sorted) {
  const uint64_t total_clear =
      static_cast<uint64_t>(positions[n - 1]) + (((keys[n - 1] >> bit) & 1u) == 0 ? 1u : 0u);
  for (uint64_t i = global_thread_index(); i < n; i += grid_stride()) {
    const uint32_t key = keys[i];
    const uint64_t clear_before = positions[i];
    if (((key >> bit) & 1u) == 0) {
      sorted[clear_before] = key;
    } else {
      sorted[total_clear + (i - clear_before)] = key;
    }
  }
}

uint64_t sort_workspace(void*, const pb_problem& problem) {
  return align_up(problem.n * sizeof(uint32_t)) +
         plugbench::cuda_naive::padded_scan_length(problem.n) * sizeof(uint32_t);
}

void sort_split_radix(plugbench::sdk::Call& call) {
  cudaStream_t stream = call.session<plugbench::cuda::CudaServices>().stream();
  const uint64_t n = call.n();
  if (n == 0) return;
  const uint32_t* in = call.input<uint32_t>(0);
  uint32_t* out = call.output<uint32_t>(0);
  auto* workspace = call.workspace<unsigned char>();
  auto* scratch_keys = reinterpret_cast<uint32_t*>(workspace);
  auto* positions = reinterpret_cast<uint32_t*>(workspace + align_up(n * sizeof(uint32_t)));
  const uint64_t length = plugbench::cuda_naive::padded_scan_length(n);
  // An even number of passes: even passes write the workspace, odd ones the output, so the last
  // (bit 31) lands in the output; the first reads the input directly.
  static_assert(kKeyBits % 2 == 0);
  for (unsigned bit = 0; bit < kKeyBits; ++bit) {
    const uint32_t* source = bit == 0 ? in : (bit % 2 == 0 ? out : scratch_keys);
    uint32_t* target = bit % 2 == 0 ? scratch_keys : out;
    map_bit_clear_kernel<<<grid_for(length, kThreads), kThreads, 0, stream>>>(source, n, bit,
                                                                              positions, length);
    PB_CUDA_CHECK_LAUNCH();
    plugbench::cuda_naive::blelloch_scan_in_place(positions, length, stream);
    split_scatter_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(source, n, bit, positions,
                                                                         target);
    PB_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "split_radix",
                  .description = "32 one-bit split passes, each a map, a Blelloch scan and a "
                                 "scatter",
                  .run = sort_split_radix,
                  .workspace = sort_workspace,
                  .max_n = UINT32_MAX});
