// plugbench/cuda/device_read.cuh: a kernel that reads a buffer and writes nothing it read: the
// read-only pass of the L2 flush (it leaves clean lines) and the read-rate calibration
// (read_within).
#pragma once

#include <plugbench/cuda/check.cuh>

#include <cuda_runtime.h>

#include <cstdint>

#pragma GCC visibility push(hidden)

namespace plugbench::cuda {

// 16-byte loads, four in flight per thread; the sum is stored only if it equals a value it cannot
// plausibly take, so the compiler must keep the loads and the kernel writes (almost) nothing.
template <int Unroll = 4>
__global__ void read_only_kernel(const uint4* data, uint64_t vectors, const uint8_t* tail,
                                 uint32_t tail_bytes, uint32_t* sink) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  uint32_t sum = 0;
  for (; i + (Unroll - 1) * stride < vectors; i += Unroll * stride) {
    uint4 v[Unroll];
#pragma unroll
    for (int k = 0; k < Unroll; ++k) v[k] = data[i + k * stride];
#pragma unroll
    for (int k = 0; k < Unroll; ++k) sum ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  }
  for (; i < vectors; i += stride) {
    const uint4 v = data[i];
    sum ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (blockIdx.x == 0 && threadIdx.x < tail_bytes) sum ^= tail[threadIdx.x];
  if (sum == 0x9e3779b9u) *sink = sum;
}

// Enqueues a read of `bytes` at `data` on `stream` (cudaMalloc's alignment: 256 bytes).
inline void enqueue_read(const void* data, uint64_t bytes, uint32_t* sink, int multiprocessors,
                         cudaStream_t stream) {
  if (bytes == 0) return;
  const uint64_t vectors = bytes / sizeof(uint4);
  const auto tail_bytes = static_cast<uint32_t>(bytes % sizeof(uint4));
  constexpr int kThreads = 256;
  const int blocks =
      multiprocessors * 8;  // a full Hopper SM holds 8 such blocks: enough loads in flight
  read_only_kernel<><<<blocks, kThreads, 0, stream>>>(
      static_cast<const uint4*>(data), vectors,
      static_cast<const uint8_t*>(data) + vectors * sizeof(uint4), tail_bytes, sink);
  PB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace plugbench::cuda

#pragma GCC visibility pop
