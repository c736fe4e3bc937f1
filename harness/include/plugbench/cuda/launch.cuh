// plugbench/cuda/launch.cuh: grid sizes for hand-written kernels and the 64-bit loop indices they
// use, so that no n up to and past 2^31 overflows an int.
#pragma once

#include <plugbench/plugin_sdk.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#pragma GCC visibility push(hidden)

namespace plugbench::cuda {

// The largest gridDim.x a launch accepts.
inline constexpr uint64_t kMaxGridBlocks = 2147483647u;

inline constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

// Bytes rounded up to whole 256-byte units: where a workspace holds several arrays, each starts
// aligned for any vector load.
inline constexpr uint64_t align_up(uint64_t bytes, uint64_t alignment = 256) {
  return ceil_div(bytes, alignment) * alignment;
}

// Blocks for a grid-stride kernel over `items`: enough to cover them, at most `cap` (the loop
// covers the rest). 0 when there is nothing to do: the caller then launches nothing.
inline unsigned grid_for(uint64_t items, unsigned block, uint64_t cap = kMaxGridBlocks) {
  return static_cast<unsigned>(std::min({ceil_div(items, block), cap, kMaxGridBlocks}));
}

// Blocks for a kernel that gives each block exactly `per_block` items (no grid-stride loop);
// refuses problems that would need more blocks than a grid holds.
inline unsigned exact_grid(uint64_t items, uint64_t per_block) {
  const uint64_t blocks = ceil_div(items, per_block);
  if (blocks > kMaxGridBlocks) {
    throw sdk::unsupported("n = " + std::to_string(items) + " needs " + std::to_string(blocks) +
                           " blocks, more than a grid holds");
  }
  return static_cast<unsigned>(blocks);
}

// This thread's first index and the grid's stride, for grid-stride loops.
__device__ inline uint64_t global_thread_index() {
  return static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline uint64_t grid_stride() {
  return static_cast<uint64_t>(gridDim.x) * blockDim.x;
}

}  // namespace plugbench::cuda

#pragma GCC visibility pop
