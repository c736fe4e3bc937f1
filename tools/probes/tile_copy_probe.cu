// tile_copy_probe.cu: how fast can tiles move through shared memory by Hopper's bulk copies when
// nothing waits for a look-back? The scan and compaction of cuda_optimized ("lookback_bulk") spend
// their time waiting for their tile to land and for their prefix (ncu, docs/performance.md); this
// probe runs the same tile movement with the look-back taken out, to split the two:
//   copy_kernel              plain 16-byte loads and stores, grid-stride: the kernel copy rate
//   tile_per_block<T, I>     one tile per block as the scan does it (claimed from a counter, one
//                            bulk load, every thread reads and rewrites its vectors, one bulk
//                            store)
//   tile_per_block_index     the same, the tile being blockIdx.x (no claim before the load)
//   tile_pipeline<T, I>      persistent blocks, two tile buffers: the next tile's load is in flight
//                            while the current one is rewritten and stored
// Each kernel writes in[i] + 1 to out[i]; a device check counts mismatches. Median of 20 timed
// runs (CUDA events) after 3 warm-ups, n = 2^28 uint32 unless given.
// Build and run on an sm_90 GPU (tools/device_run.sh probe does both):
//   nvcc -O3 -std=c++20 -arch=sm_90 -Iplugins/cuda_optimized tools/probes/tile_copy_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bulk_copy.cuh"

using plugbench::cuda::opt::bulk_barrier_init;
using plugbench::cuda::opt::bulk_fence_shared_writes;
using plugbench::cuda::opt::bulk_load;
using plugbench::cuda::opt::bulk_store;
using plugbench::cuda::opt::bulk_store_async;
using plugbench::cuda::opt::bulk_wait;
using plugbench::cuda::opt::bulk_wait_stores_read;

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e = (call);                                                           \
    if (e != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

namespace {

__global__ void copy_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, uint64_t n4) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < n4;
       i += uint64_t{gridDim.x} * blockDim.x) {
    uint4 v = in[i];
    v.x += 1;
    v.y += 1;
    v.z += 1;
    v.w += 1;
    out[i] = v;
  }
}

// Every thread adds 1 to its vectors of the tile in shared memory (the scan's read-and-rewrite).
template <int kThreads, int kTileItems>
__device__ __forceinline__ void rewrite_tile(uint32_t* tile) {
  auto* vectors = reinterpret_cast<uint4*>(tile);
#pragma unroll
  for (int k = 0; k < kTileItems / 4 / kThreads; ++k) {
    uint4& slot = vectors[threadIdx.x + k * kThreads];
    uint4 v = slot;
    v.x += 1;
    v.y += 1;
    v.z += 1;
    v.w += 1;
    slot = v;
  }
}

template <int kThreads, int kTileItems, int kBlocksPerSm, bool kBlockIndex>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    tile_per_block(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint32_t* counter) {
  __shared__ alignas(128) uint32_t tile[kTileItems];
  __shared__ uint64_t loaded;
  __shared__ uint32_t claimed;
  if (threadIdx.x == 0) {
    bulk_barrier_init(&loaded, 1);
    claimed = kBlockIndex ? blockIdx.x : atomicAdd(counter, 1u);
    if (kBlockIndex) bulk_load(tile, in + uint64_t{claimed} * kTileItems, kTileItems * 4, &loaded);
  }
  __syncthreads();
  const uint64_t base = uint64_t{claimed} * kTileItems;
  if (!kBlockIndex && threadIdx.x == 0) bulk_load(tile, in + base, kTileItems * 4, &loaded);
  bulk_wait(&loaded, 0);
  rewrite_tile<kThreads, kTileItems>(tile);
  bulk_fence_shared_writes();
  __syncthreads();
  if (threadIdx.x == 0) bulk_store(out + base, tile, kTileItems * 4);
}

// Persistent: the block claims tiles one after another and keeps the next tile's load in flight
// while it rewrites and stores the current one.
template <int kThreads, int kTileItems, int kBlocksPerSm>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    tile_pipeline(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint32_t* counter,
                  uint32_t tiles) {
  __shared__ alignas(128) uint32_t buffer[2][kTileItems];
  __shared__ uint64_t loaded[2];
  __shared__ uint32_t claimed[2];
  if (threadIdx.x == 0) {
    bulk_barrier_init(&loaded[0], 1);
    bulk_barrier_init(&loaded[1], 1);
    claimed[0] = atomicAdd(counter, 1u);
    if (claimed[0] < tiles) {
      bulk_load(buffer[0], in + uint64_t{claimed[0]} * kTileItems, kTileItems * 4, &loaded[0]);
    }
  }
  __syncthreads();
  uint32_t phases = 0;  // bit b: the phase of loaded[b] to wait for
  for (int b = 0;; b ^= 1) {
    const uint32_t tile = claimed[b];
    if (tile >= tiles) break;
    if (threadIdx.x == 0) {
      const uint32_t next = atomicAdd(counter, 1u);
      claimed[b ^ 1] = next;
      if (next < tiles) {
        bulk_wait_stores_read();  // the other buffer's store has read it
        bulk_load(buffer[b ^ 1], in + uint64_t{next} * kTileItems, kTileItems * 4, &loaded[b ^ 1]);
      }
    }
    bulk_wait(&loaded[b], (phases >> b) & 1u);
    phases ^= 1u << b;
    rewrite_tile<kThreads, kTileItems>(buffer[b]);
    bulk_fence_shared_writes();
    __syncthreads();  // also publishes claimed[b ^ 1]
    if (threadIdx.x == 0) {
      bulk_store_async(out + uint64_t{tile} * kTileItems, buffer[b], kTileItems * 4);
    }
  }
  if (threadIdx.x == 0) bulk_wait_stores_read();
}

__global__ void count_mismatches(const uint32_t* in, const uint32_t* out, uint64_t n,
                                 unsigned long long* mismatches) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += uint64_t{gridDim.x} * blockDim.x) {
    if (out[i] != in[i] + 1) atomicAdd(mismatches, 1ull);
  }
}

struct Probe {
  const uint32_t* in;
  uint32_t* out;
  uint32_t* counter;
  uint64_t n;
  int sms;
  unsigned long long* mismatches;

  template <class Launch>
  void run(const char* name, Launch launch) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> ms;
    for (int i = 0; i < 23; ++i) {
      CHECK(cudaMemset(out, 0, n * 4));
      CHECK(cudaMemset(counter, 0, 4));
      CHECK(cudaEventRecord(start));
      launch();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaGetLastError());
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (i >= 3) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    CHECK(cudaMemset(mismatches, 0, sizeof(unsigned long long)));
    count_mismatches<<<sms * 8, 256>>>(in, out, n, mismatches);
    unsigned long long wrong = 0;
    CHECK(cudaMemcpy(&wrong, mismatches, sizeof(wrong), cudaMemcpyDeviceToHost));
    const double median = ms[ms.size() / 2];
    std::printf("%-36s median %.4f ms  min %.4f  max %.4f  %.2f TB/s  mismatches %llu\n", name,
                median, ms.front(), ms.back(), 2.0 * n * 4 / (median * 1e-3) / 1e12, wrong);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
  }
};

template <int kThreads, int kTileItems, int kBlocksPerSm, bool kBlockIndex>
void run_tile_per_block(Probe& p, const char* name) {
  const auto tiles = static_cast<unsigned>(p.n / kTileItems);
  p.run(name, [&] {
    tile_per_block<kThreads, kTileItems, kBlocksPerSm, kBlockIndex>
        <<<tiles, kThreads>>>(p.in, p.out, p.counter);
  });
}

template <int kThreads, int kTileItems, int kBlocksPerSm>
void run_pipeline(Probe& p, const char* name, int blocks_per_sm) {
  const auto tiles = static_cast<unsigned>(p.n / kTileItems);
  p.run(name, [&] {
    tile_pipeline<kThreads, kTileItems, kBlocksPerSm>
        <<<p.sms * blocks_per_sm, kThreads>>>(p.in, p.out, p.counter, tiles);
  });
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const uint64_t n = uint64_t{1} << log2n;  // a multiple of every tile size below
  cudaDeviceProp properties{};
  CHECK(cudaGetDeviceProperties(&properties, 0));
  std::printf("%s, %d SMs, n = 2^%d uint32 (%.2f GiB per array)\n", properties.name,
              properties.multiProcessorCount, log2n, n * 4.0 / (1 << 30));
  uint32_t *in = nullptr, *out = nullptr, *counter = nullptr;
  unsigned long long* mismatches = nullptr;
  CHECK(cudaMalloc(&in, n * 4));
  CHECK(cudaMalloc(&out, n * 4));
  CHECK(cudaMalloc(&counter, 4));
  CHECK(cudaMalloc(&mismatches, sizeof(unsigned long long)));
  std::vector<uint32_t> host(n);
  for (uint64_t i = 0; i < n; ++i) host[i] = static_cast<uint32_t>(i * 2654435761u);
  CHECK(cudaMemcpy(in, host.data(), n * 4, cudaMemcpyHostToDevice));
  Probe p{in, out, counter, n, properties.multiProcessorCount, mismatches};

  p.run("cudaMemcpy (no +1: mismatches = n)",
        [&] { CHECK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); });
  p.run("copy_kernel 256 threads, 8 blocks/SM", [&] {
    copy_kernel<<<p.sms * 8, 256>>>(reinterpret_cast<const uint4*>(in),
                                    reinterpret_cast<uint4*>(out), n / 4);
  });
  p.run("copy_kernel 256 threads, 32 blocks/SM", [&] {
    copy_kernel<<<p.sms * 32, 256>>>(reinterpret_cast<const uint4*>(in),
                                     reinterpret_cast<uint4*>(out), n / 4);
  });
  run_tile_per_block<256, 8192, 6, false>(p, "tile_per_block 256 x 32, 6/SM");
  run_tile_per_block<256, 8192, 6, true>(p, "tile_per_block_index 256 x 32, 6/SM");
  run_tile_per_block<128, 4096, 12, false>(p, "tile_per_block 128 x 32, 12/SM");
  run_tile_per_block<128, 4096, 12, true>(p, "tile_per_block_index 128 x 32, 12/SM");
  run_pipeline<256, 4096, 6>(p, "tile_pipeline 2 x 4096, 6/SM", 6);
  run_pipeline<256, 4096, 6>(p, "tile_pipeline 2 x 4096, 4/SM", 4);
  run_pipeline<128, 2048, 12>(p, "tile_pipeline 2 x 2048 (128 thr), 12/SM", 12);
  return 0;
}
